import { createHash } from "node:crypto";
import { Transform } from "node:stream";
import { RawObjectTooLarge } from "./raw-store.ts";

/**
 * A pass-through that counts and hashes the bytes of a body on their way to storage and
 * fails with `RawObjectTooLarge` at the first byte past `maxBytes`.
 */
export function measuredBody(maxBytes: number): { stream: Transform; result(): { byteSize: number; sha256: string } } {
  const hash = createHash("sha256");
  let byteSize = 0;
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      byteSize += chunk.length;
      if (byteSize > maxBytes) return done(new RawObjectTooLarge(maxBytes));
      hash.update(chunk);
      done(null, chunk);
    },
  });
  return { stream, result: () => ({ byteSize, sha256: hash.digest("hex") }) };
}
