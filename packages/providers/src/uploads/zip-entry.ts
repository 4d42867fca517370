import { Readable } from "node:stream";
import { AppError, type RawObjectSource } from "@svc/core";
import yauzl from "yauzl";

/**
 * A deflated entry this many times smaller than its content is refused: real exports
 * compress about 10 to 30 times; deflate's own limit is about 1000.
 */
export const MAX_ZIP_RATIO = 200;
/** Entries up to this size are not held to the ratio (tiny files of blanks compress well). */
const RATIO_FREE_BYTES = 1024 * 1024;
/** Reads of the zip's directory and headers are small; they are served from one block read at once. */
const SMALL_READ = 64 * 1024;
const BLOCK = 1024 * 1024;

/**
 * The decompressed bytes of the first entry of a stored zip whose name `matches`, read
 * through ranged reads (the directory sits at the end; the file is never loaded). `what`
 * names the entry in problems. A body that is not a readable zip, a zip without the entry,
 * an encrypted or oddly compressed entry, and an entry bigger than `maxBytes` once
 * decompressed (or compressed past MAX_ZIP_RATIO) are AppErrors; a failing read of the
 * store is thrown as it is.
 */
export async function* zipEntry(
  source: RawObjectSource,
  matches: (name: string) => boolean,
  what: string,
  maxBytes: number,
): AsyncGenerator<Uint8Array> {
  const reader = new SourceReader(source);
  const unreadable = (error: unknown) => {
    if (reader.storeError !== undefined) return reader.storeError;
    if (error instanceof AppError) return error;
    return new AppError("bad_request", `The body is not a readable zip archive (${error instanceof Error ? error.message : String(error)}).`);
  };

  let stream: Readable;
  try {
    const zip = await yauzl.fromRandomAccessReaderPromise(reader, source.size, { autoClose: false, lazyEntries: true });
    try {
      let entry: yauzl.Entry | undefined;
      for await (const candidate of zip.eachEntry()) {
        if (matches(candidate.fileName)) {
          entry = candidate;
          break;
        }
      }
      if (!entry) throw new AppError("bad_request", `The zip holds no ${what}.`);
      if (entry.isEncrypted()) throw new AppError("bad_request", `${what} in the zip is encrypted.`);
      if (entry.uncompressedSize > maxBytes) {
        throw new AppError("payload_too_large", `${what} in the zip is larger than ${maxBytes} bytes once decompressed.`);
      }
      if (entry.uncompressedSize > RATIO_FREE_BYTES && entry.uncompressedSize > MAX_ZIP_RATIO * entry.compressedSize) {
        throw new AppError("bad_request", `${what} in the zip is compressed more than ${MAX_ZIP_RATIO} to 1; refused as a possible zip bomb.`);
      }
      stream = await zip.openReadStreamPromise(entry);
    } finally {
      zip.close();
    }
  } catch (error) {
    throw unreadable(error);
  }

  // yauzl checks the entry's bytes against its declared size; the count here keeps the cap without relying on it.
  let total = 0;
  try {
    for await (const chunk of stream) {
      total += (chunk as Buffer).length;
      if (total > maxBytes) throw new AppError("payload_too_large", `${what} in the zip is larger than ${maxBytes} bytes once decompressed.`);
      yield chunk as Buffer;
    }
  } catch (error) {
    if (error instanceof AppError || reader.storeError !== undefined) throw unreadable(error);
    throw new AppError("bad_request", `${what} in the zip cannot be decompressed (${error instanceof Error ? error.message : String(error)}).`);
  } finally {
    stream.destroy();
  }
}

/** yauzl's view of a stored object: ranges of it as streams; small reads (the directory, headers) from one cached block. */
class SourceReader extends yauzl.RandomAccessReader {
  readonly source: RawObjectSource;
  /** The first error of the store itself, told apart from a broken zip. */
  storeError: unknown;
  private block: { start: number; bytes: Buffer } | undefined;

  constructor(source: RawObjectSource) {
    super();
    this.source = source;
  }

  override _readStreamForRange(start: number, end: number): Readable {
    return Readable.from(this.storeRange(start, end), { objectMode: false });
  }

  /** yauzl reads the directory entry by entry, a few dozen bytes each: one ranged read of a block serves thousands. */
  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (err: Error | null) => void): void {
    if (length > SMALL_READ) return super.read(buffer, offset, length, position, callback);
    this.blockCovering(position, position + length).then((block) => {
      const copied = block.bytes.copy(buffer, offset, position - block.start, position - block.start + length);
      callback(copied < length ? new Error("unexpected end of the zip") : null);
    }, callback);
  }

  /** The stored bytes of the range, cut at the object's end: a directory pointing past it is a broken zip, not a failing store. */
  private async *storeRange(start: number, end: number): AsyncGenerator<Buffer> {
    const last = Math.min(end, this.source.size);
    if (start >= last) return;
    try {
      for await (const chunk of this.source.readRange(start, last)) yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    } catch (error) {
      this.storeError ??= error;
      throw error;
    }
  }

  private async blockCovering(start: number, end: number): Promise<{ start: number; bytes: Buffer }> {
    const cached = this.block;
    if (cached && start >= cached.start && end <= cached.start + cached.bytes.length) return cached;
    const chunks: Buffer[] = [];
    for await (const chunk of this.storeRange(start, start + BLOCK)) chunks.push(chunk);
    this.block = { start, bytes: Buffer.concat(chunks) };
    return this.block;
  }
}
