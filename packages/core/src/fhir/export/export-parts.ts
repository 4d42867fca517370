import type { ObservationPosition } from "../observation-position.ts";
import type { LinePage } from "./export-lines.ts";
import type { FhirExportType } from "./export-position.ts";

/** A file holds at most this many resources. */
export const MAX_PART_RESOURCES = 500_000;

/** Bytes gathered before they are handed to the target as one chunk. */
const CHUNK_BYTES = 1 << 20;

/**
 * Where a line's JSON is written, piece by piece: straight into the chunk's buffer, so that
 * no line is first built as a string (concatenated, then flattened and measured to encode it).
 */
export interface LineOut {
  /** Any text, as UTF-8. */
  text(text: string): void;
  /** Text known to be ASCII (digits, times): one byte a character. */
  ascii(text: string): void;
  /** Bytes already encoded (the fixed parts of a template). */
  bytes(bytes: Uint8Array): void;
}

/**
 * NDJSON lines as UTF-8 chunks of CHUNK_BYTES (the last one shorter): each line is encoded as
 * it is written, its pieces copied into the chunk at once, so no line's text stays alive (a
 * page of text kept alive would be promoted and grow the heap). A chunk may end mid-line.
 *
 * The buffers are filled again once the target is done with them: a new buffer for every
 * chunk would live as long as its write, be promoted, and be freed only by a full collection,
 * which V8 starts after some 64 MB of such memory.
 */
class ChunkWriter implements LineOut {
  private buffer: Buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  private used = 0;
  /** Chunks filled, not handed on yet. */
  private full: Buffer[] = [];
  /** The buffers of the chunks handed on, until the target is done with them. */
  private lent: Buffer[] = [];
  /** Buffers the target is done with, to fill again. */
  private spare: Buffer[] = [];

  text(text: string): void {
    // At most three bytes a UTF-16 unit: when that fits, no need to measure first.
    if (CHUNK_BYTES - this.used >= text.length * 3) this.used += this.buffer.write(text, this.used);
    else this.bytes(Buffer.from(text));
  }

  ascii(text: string): void {
    if (CHUNK_BYTES - this.used < text.length) return this.bytes(Buffer.from(text, "latin1"));
    // A few characters: copied one by one, faster than a call into the encoder.
    const { buffer } = this;
    let at = this.used;
    for (let i = 0; i < text.length; i++) buffer[at++] = text.charCodeAt(i);
    this.used = at;
  }

  bytes(bytes: Uint8Array): void {
    for (let from = 0; from < bytes.length; ) {
      const room = CHUNK_BYTES - this.used;
      const end = Math.min(bytes.length, from + room);
      this.buffer.set(from === 0 && end === bytes.length ? bytes : bytes.subarray(from, end), this.used);
      this.used += end - from;
      from = end;
      if (this.used === CHUNK_BYTES) this.full.push(this.takeBuffer());
    }
  }

  /** Ends a line. */
  newline(): void {
    this.buffer[this.used++] = 0x0a;
    if (this.used === CHUNK_BYTES) this.full.push(this.takeBuffer());
  }

  /** The chunks filled so far, to hand on. */
  filled(): Buffer[] {
    const full = this.full;
    if (full.length > 0) this.full = [];
    return full;
  }

  /** What is gathered and not handed on yet, if anything. */
  rest(): Buffer | undefined {
    return this.used === 0 ? undefined : this.takeBuffer();
  }

  /**
   * The target is done with every chunk handed on so far: it has asked for the chunk after
   * them (ExportTarget.write). Their buffers are filled again.
   */
  returned(): void {
    if (this.lent.length === 0) return;
    this.spare.push(...this.lent);
    this.lent = [];
  }

  private takeBuffer(): Buffer {
    const chunk = this.buffer.subarray(0, this.used);
    this.lent.push(this.buffer);
    this.buffer = this.spare.pop() ?? Buffer.allocUnsafe(CHUNK_BYTES);
    this.used = 0;
    return chunk;
  }
}

/** Where the files of an export go (the raw store, or a folder for the CLI). */
export interface ExportTarget {
  /**
   * Streams a file's bytes in and resolves once they are durable: where they are, and how many.
   * A chunk of `body` is the target's only until it asks for the next one: by then it has
   * written (or copied) it, for the writer fills the same memory again.
   */
  write(fileNumber: number, type: FhirExportType, body: AsyncIterable<Uint8Array>): Promise<{ storageKey: string; byteSize: number }>;
}

/** A file written: its number, type, where it is, its resources, its bytes. */
export interface WrittenPart {
  fileNumber: number;
  resourceType: FhirExportType;
  storageKey: string;
  resourceCount: number;
  byteSize: number;
}

/** The last line of a file: whose it is and (Observations) where it sorts. */
export interface LastLine {
  user: string;
  position: ObservationPosition | undefined;
}

/**
 * Cuts the lines of one type into files of at most `maxResources` lines, each streamed into
 * the target as it is read (a page of lines read ahead and one chunk of bytes in memory),
 * numbered from `firstFileNumber`. After each file is durable, `onPart` learns it and its last
 * line. No file is begun without a line for it. Resolves with the number of the next file.
 */
export async function writeParts(
  pages: AsyncIterator<LinePage>,
  options: {
    type: FhirExportType;
    firstFileNumber: number;
    maxResources: number;
    target: ExportTarget;
    onPart: (part: WrittenPart, last: LastLine) => Promise<void>;
  },
): Promise<number> {
  let page: LinePage | undefined;
  let index = 0;
  const hasLine = async (): Promise<boolean> => {
    while (page === undefined || index >= page.length) {
      const read = await pages.next();
      if (read.done) return false;
      page = read.value;
      index = 0;
    }
    return true;
  };

  const chunks = new ChunkWriter();
  let fileNumber = options.firstFileNumber;
  while (await hasLine()) {
    let count = 0;
    let last: LastLine | undefined;
    async function* body(): AsyncGenerator<Uint8Array> {
      while (count < options.maxResources && (await hasLine())) {
        const of = page!;
        const end = Math.min(of.length, index + options.maxResources - count);
        while (index < end) {
          of.write(index++, chunks);
          chunks.newline();
          count++;
          const full = chunks.filled();
          if (full.length === 0) continue;
          for (let i = 0; i < full.length; i++) yield full[i]!;
          chunks.returned();
        }
        last = { user: of.user(end - 1), position: of.position(end - 1) };
      }
      yield* chunks.filled();
      const rest = chunks.rest();
      if (rest) yield rest;
      chunks.returned();
    }
    const { storageKey, byteSize } = await options.target.write(fileNumber, options.type, body());
    await options.onPart({ fileNumber, resourceType: options.type, storageKey, resourceCount: count, byteSize }, last!);
    fileNumber++;
  }
  return fileNumber;
}
