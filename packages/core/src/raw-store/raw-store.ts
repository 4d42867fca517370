/**
 * Where raw payloads live: on the local disk by default (SVC_DATA_DIR/raw), or in an
 * object store. Keys are `<user id>/<raw object id>`.
 */
export interface RawStore {
  /** Streams `body` into a new object, counting and hashing it; throws `RawObjectTooLarge` past `maxBytes`. */
  write(key: string, body: AsyncIterable<Uint8Array>, maxBytes: number): Promise<{ byteSize: number; sha256: string }>;
  read(key: string): AsyncIterable<Uint8Array>;
  /** Deletes an object; no error when it is already gone. */
  delete(key: string): Promise<void>;
  /** Deletes every object of a user (keys starting with `<user id>/`). */
  deleteUser(userId: string): Promise<void>;
}

export class RawObjectTooLarge extends Error {
  readonly maxBytes: number;
  constructor(maxBytes: number) {
    super(`The body is larger than ${maxBytes} bytes.`);
    this.maxBytes = maxBytes;
  }
}
