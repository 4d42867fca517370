import { createHash } from "node:crypto";
import { RawObjectTooLarge } from "./raw-store.ts";

export interface MeasuredBody {
  /** The body's chunks, counted and hashed on their way to storage. */
  chunks: AsyncIterable<Uint8Array>;
  /** Size and SHA-256 of every chunk passed; read once the body ended. */
  result(): { byteSize: number; sha256: string };
  /**
   * Whether `error` came from the body rather than from the store: what reading the body
   * threw (a client's abort, the caller's own error), or RawObjectTooLarge. A store passes
   * these on as they are and treats every other error as its own.
   */
  isBodyError(error: unknown): boolean;
}

/** Counts and hashes a body on its way to storage and fails with `RawObjectTooLarge` at the first byte past `maxBytes`. */
export function measuredBody(body: AsyncIterable<Uint8Array>, maxBytes: number): MeasuredBody {
  const hash = createHash("sha256");
  let byteSize = 0;
  let bodyError: unknown;
  async function* chunks(): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of body) {
        byteSize += chunk.length;
        if (byteSize > maxBytes) throw new RawObjectTooLarge(maxBytes);
        hash.update(chunk);
        yield chunk;
      }
    } catch (error) {
      bodyError = error;
      throw error;
    }
  }
  return {
    chunks: chunks(),
    result: () => ({ byteSize, sha256: hash.digest("hex") }),
    isBodyError: (error) => error instanceof RawObjectTooLarge || (bodyError !== undefined && error === bodyError),
  };
}
