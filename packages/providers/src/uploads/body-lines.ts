import { createGunzip } from "node:zlib";
import { Readable } from "node:stream";
import { AppError } from "@svc/core";

/** Gzip's magic bytes: a gzip body is recognized by its content, whatever its headers say. */
const GZIP = [0x1f, 0x8b];

/** The bytes of a stored body, gunzipped when they are gzip, refusing more than `maxBytes` after decompression. */
export async function* decodedBody(bytes: AsyncIterable<Uint8Array>, maxBytes: number): AsyncGenerator<Uint8Array> {
  const iterator = bytes[Symbol.asyncIterator]();
  const first = await iterator.next();
  if (first.done) return;
  const rest: AsyncIterable<Uint8Array> = {
    [Symbol.asyncIterator]: async function* () {
      yield first.value;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    },
  };
  const gzip = first.value[0] === GZIP[0] && first.value[1] === GZIP[1];
  const source: AsyncIterable<Uint8Array> = gzip ? Readable.from(rest).pipe(createGunzip()) : rest;
  let total = 0;
  try {
    for await (const chunk of source) {
      total += chunk.length;
      if (total > maxBytes) throw new AppError("payload_too_large", `The body is larger than ${maxBytes} bytes once decompressed.`);
      yield chunk;
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("bad_request", "The body is not valid gzip.");
  }
}

/**
 * The lines of a body (LF or CRLF), numbered from 1 (empty ones too). A line longer
 * than `maxLineBytes` is a 400 naming it, so one endless line cannot fill the memory.
 */
export async function* bodyLines(bytes: AsyncIterable<Uint8Array>, maxLineBytes: number): AsyncGenerator<{ line: string; number: number }> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let pending = "";
  let number = 0;
  const tooLong = () => new AppError("bad_request", `line ${number + 1}: longer than ${maxLineBytes} bytes`);
  try {
    for await (const chunk of bytes) {
      pending += decoder.decode(chunk, { stream: true });
      let start = 0;
      for (let newline = pending.indexOf("\n"); newline !== -1; newline = pending.indexOf("\n", start)) {
        number++;
        const line = pending.slice(start, newline).replace(/\r$/, "");
        start = newline + 1;
        if (line.length > maxLineBytes) throw tooLong();
        yield { line, number };
      }
      pending = pending.slice(start);
      if (pending.length > maxLineBytes) throw tooLong();
    }
    pending += decoder.decode();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw new AppError("bad_request", `line ${number + 1}: not valid UTF-8`);
  }
  if (pending.trim() !== "") yield { line: pending.replace(/\r$/, ""), number: number + 1 };
}
