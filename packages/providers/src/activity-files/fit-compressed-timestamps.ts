// FIT files whose data messages use compressed-timestamp record headers (older Forerunner
// 70/110/405 and similar) rewritten with normal headers, because the FIT SDK refuses them.
//
// The FIT protocol's compressed timestamp header: bit 7 set, the local message type in bits
// 5-6 (0 to 3), a time offset in seconds in bits 0-4. The message's timestamp is the last
// timestamp known (field 253 of any data message, or the last compressed one) with its low 5
// bits replaced by the offset, one rollover of 32 s later when the offset is smaller:
// last + ((offset - last) & 0x1F).
//
// Each such message is written as a definition of its local type with a uint32 timestamp
// (field 253) appended to its fields (before any developer fields), when that definition is
// not the active one, then the message with a normal header and the 4 timestamp bytes after
// its fields (in the definition's byte order). A later normal message of that local type gets
// the plain definition again. A compressed message before any timestamp keeps no time. Every
// chained file keeps its header with the data size (and a 14-byte header's CRC) updated, and
// gets a new file CRC. Bytes without compressed headers come back as they are, and so do
// bytes this walk cannot follow (an undefined local type, a record past the data): the SDK
// then refuses them as before. Nothing here throws.

import { CrcCalculator } from "@garmin/fitsdk";

const COMPRESSED_HEADER = 0x80;
const DEFINITION_HEADER = 0x40;
const DEVELOPER_DATA = 0x20;
const TIME_OFFSET_MASK = 0x1f;
const TIMESTAMP_FIELD = 253;
const UINT32 = 0x86;
const INVALID_UINT32 = 0xffffffff;
const CRC_SIZE = 2;

interface Definition {
  /** The definition record as the file has it. */
  plain: Uint8Array;
  /** The same definition with a uint32 field 253 after its fields, or null when it has 255 fields already. */
  withTimestamp: Uint8Array | null;
  littleEndian: boolean;
  fieldsSize: number;
  developerSize: number;
  /** Where a 4-byte field 253 lies in the message's bytes, when the definition has one. */
  timestampAt: number | undefined;
}

/** The bytes with every compressed-timestamp header rewritten as described above. */
export function withoutCompressedTimestamps(bytes: Uint8Array): Uint8Array {
  const files: Uint8Array[] = [];
  let compressed = false;
  let offset = 0;
  while (offset < bytes.length) {
    const headerSize = bytes[offset] ?? 0;
    if (headerSize < 12 || offset + headerSize > bytes.length) return bytes;
    const view = new DataView(bytes.buffer, bytes.byteOffset + offset);
    const dataEnd = offset + headerSize + view.getUint32(4, true);
    if (dataEnd + CRC_SIZE > bytes.length) return bytes;
    const data = rewriteRecords(bytes, offset + headerSize, dataEnd);
    if (data === null) return bytes;
    compressed ||= data.compressed;
    files.push(withHeaderAndCrc(bytes.subarray(offset, offset + headerSize), data.chunks));
    offset = dataEnd + CRC_SIZE;
  }
  return compressed ? concat(files) : bytes;
}

/** The records from `start` to `end` with compressed headers rewritten, or null when they cannot be walked. */
function rewriteRecords(bytes: Uint8Array, start: number, end: number): { chunks: Uint8Array[]; compressed: boolean } | null {
  const definitions: Array<Definition | undefined> = [];
  const active: Array<"plain" | "withTimestamp"> = [];
  const chunks: Uint8Array[] = [];
  let compressed = false;
  let last: number | undefined;
  let at = start;
  while (at < end) {
    const header = bytes[at] ?? 0;
    if ((header & COMPRESSED_HEADER) === 0 && (header & DEFINITION_HEADER) !== 0) {
      const definition = definitionAt(bytes, at, end);
      if (definition === null) return null;
      const local = header & 0x0f;
      definitions[local] = definition;
      active[local] = "plain";
      chunks.push(definition.plain);
      at += definition.plain.length;
      continue;
    }
    const local = header & COMPRESSED_HEADER ? (header >> 5) & 0x03 : header & 0x0f;
    const definition = definitions[local];
    if (definition === undefined) return null;
    const fieldsEnd = at + 1 + definition.fieldsSize;
    const messageEnd = fieldsEnd + definition.developerSize;
    if (messageEnd > end) return null;
    if ((header & COMPRESSED_HEADER) === 0) {
      if (active[local] !== "plain") chunks.push(definition.plain);
      active[local] = "plain";
      if (definition.timestampAt !== undefined) {
        const timestamp = readUint32(bytes, at + 1 + definition.timestampAt, definition.littleEndian);
        if (timestamp !== INVALID_UINT32) last = timestamp;
      }
      chunks.push(bytes.subarray(at, messageEnd));
      at = messageEnd;
      continue;
    }
    compressed = true;
    if (definition.timestampAt !== undefined) {
      const timestamp = readUint32(bytes, at + 1 + definition.timestampAt, definition.littleEndian);
      if (timestamp !== INVALID_UINT32) last = timestamp;
    }
    if (last !== undefined && definition.withTimestamp !== null) {
      last = (last + (((header & TIME_OFFSET_MASK) - last) & TIME_OFFSET_MASK)) >>> 0;
      if (active[local] !== "withTimestamp") chunks.push(definition.withTimestamp);
      active[local] = "withTimestamp";
      chunks.push(Uint8Array.of(local), bytes.subarray(at + 1, fieldsEnd), uint32Bytes(last, definition.littleEndian), bytes.subarray(fieldsEnd, messageEnd));
    } else {
      if (active[local] !== "plain") chunks.push(definition.plain);
      active[local] = "plain";
      chunks.push(Uint8Array.of(local), bytes.subarray(at + 1, messageEnd));
    }
    at = messageEnd;
  }
  return { chunks, compressed };
}

/** The definition record at `at` (header, reserved, architecture, global number, fields, developer fields), or null when it runs past `end`. */
function definitionAt(bytes: Uint8Array, at: number, end: number): Definition | null {
  const header = bytes[at] ?? 0;
  const fieldCount = bytes[at + 5];
  if (fieldCount === undefined || at + 6 > end) return null;
  const fieldsEnd = at + 6 + 3 * fieldCount;
  let definitionEnd = fieldsEnd;
  let developerSize = 0;
  if (header & DEVELOPER_DATA) {
    const developerCount = bytes[fieldsEnd];
    if (developerCount === undefined) return null;
    definitionEnd = fieldsEnd + 1 + 3 * developerCount;
    if (definitionEnd > end) return null;
    for (let i = 0; i < developerCount; i++) developerSize += bytes[fieldsEnd + 1 + 3 * i + 1] ?? 0;
  }
  if (definitionEnd > end) return null;
  let fieldsSize = 0;
  let timestampAt: number | undefined;
  for (let i = 0; i < fieldCount; i++) {
    const field = at + 6 + 3 * i;
    const size = bytes[field + 1] ?? 0;
    if (bytes[field] === TIMESTAMP_FIELD && size === 4) timestampAt = fieldsSize;
    fieldsSize += size;
  }
  const plain = bytes.subarray(at, definitionEnd);
  const fields = plain.subarray(6, fieldsEnd - at);
  const developerPart = plain.subarray(fieldsEnd - at);
  const timestampField = Uint8Array.of(TIMESTAMP_FIELD, 4, UINT32);
  const withTimestamp = fieldCount === 255 ? null : concat([plain.subarray(0, 5), Uint8Array.of(fieldCount + 1), fields, timestampField, developerPart]);
  return { plain, withTimestamp, littleEndian: bytes[at + 2] === 0, fieldsSize, developerSize, timestampAt };
}

/** A FIT file of the given header and data: the header's data size (and CRC of a 14-byte header) set, the file CRC appended. */
function withHeaderAndCrc(header: Uint8Array, chunks: readonly Uint8Array[]): Uint8Array {
  const file = concat([header, ...chunks, new Uint8Array(CRC_SIZE)]);
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  view.setUint32(4, file.length - header.length - CRC_SIZE, true);
  if (header.length >= 14) view.setUint16(12, CrcCalculator.calculateCRC(file, 0, 12), true);
  view.setUint16(file.length - CRC_SIZE, CrcCalculator.calculateCRC(file, 0, file.length - CRC_SIZE), true);
  return file;
}

function readUint32(bytes: Uint8Array, at: number, littleEndian: boolean): number {
  return new DataView(bytes.buffer, bytes.byteOffset + at, 4).getUint32(0, littleEndian);
}

function uint32Bytes(value: number, littleEndian: boolean): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, value, littleEndian);
  return out;
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
