/**
 * Where raw payloads live: on the local disk by default (SVC_DATA_DIR/raw), or in an
 * S3-compatible object store. Keys are `<user id>/<raw object id>`.
 */
export interface RawStore {
  /** Streams `body` into a new object, counting and hashing it; throws `RawObjectTooLarge` past `maxBytes`. */
  write(key: string, body: AsyncIterable<Uint8Array>, maxBytes: number): Promise<{ byteSize: number; sha256: string }>;
  read(key: string): AsyncIterable<Uint8Array>;
  /** The bytes from `start` up to (not including) `endExclusive`; a zip is read from its end this way. */
  readRange(key: string, start: number, endExclusive: number): AsyncIterable<Uint8Array>;
  /** Deletes an object; no error when it is already gone. */
  delete(key: string): Promise<void>;
  /** Deletes every object of a user (keys starting with `<user id>/`). */
  deleteUser(userId: string): Promise<void>;
}

/** One stored raw object as a parser sees it: its size, its bytes in order, or any range of them. */
export interface RawObjectSource {
  size: number;
  read(): AsyncIterable<Uint8Array>;
  readRange(start: number, endExclusive: number): AsyncIterable<Uint8Array>;
}

/** The object under `key` of `byteSize` bytes (the raw object row's byte_size) as a parser's source. */
export function rawObjectSource(store: RawStore, key: string, byteSize: number): RawObjectSource {
  return {
    size: byteSize,
    read: () => store.read(key),
    readRange: (start, endExclusive) => store.readRange(key, start, endExclusive),
  };
}

export class RawObjectTooLarge extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`The body is larger than ${maxBytes} bytes.`);
    this.maxBytes = maxBytes;
  }
}
