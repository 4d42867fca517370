/**
 * The keys a raw store takes: `<user id>/<raw object id>`, and the files of FHIR exports,
 * `<user id>/fhir-export-<export id>-<n>.ndjson` (one user's: the user's erasure deletes them)
 * and `fhir-exports/<tenant id>/<export id>/<n>.ndjson` (a tenant's).
 */
export const RAW_STORE_KEY =
  /^(?:[0-9a-f-]{36}\/[0-9a-f-]{36}|[0-9a-f-]{36}\/fhir-export-[0-9a-f-]{36}-[1-9][0-9]{0,8}\.ndjson|fhir-exports\/[0-9a-f-]{36}\/[0-9a-f-]{36}\/[1-9][0-9]{0,8}\.ndjson)$/;

/** The message of a key RAW_STORE_KEY refuses. */
export const RAW_STORE_KEY_ERROR = "raw object keys are <user id>/<raw object id> or the files of FHIR exports";

/**
 * Where raw payloads live: on the local disk by default (SVC_DATA_DIR/raw), or in an
 * S3-compatible object store (keys: RAW_STORE_KEY).
 */
export interface RawStore {
  /**
   * Streams `body` into a new object, counting and hashing it, and resolves only once the
   * object is durable (fsynced, or acknowledged by the object store). Throws
   * `RawObjectTooLarge` past `maxBytes`, what reading `body` threw as it is, and
   * `RawStoreUnavailable` when the store cannot take the bytes. Is done with each chunk of
   * `body` before it asks for the next: a writer may fill the same buffer again (an export does).
   */
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

/**
 * The raw store could not do its part (a disk full, read-only or failing, a folder it may not
 * write, an object store answering 5xx or not at all): a fault of the service that usually
 * clears. Carries the store's error code (e.g. ENOSPC, `HTTP 503 SlowDown`) and the failed
 * operation, never a path, a key or a URL; the original error is left out for that reason.
 */
export class RawStoreUnavailable extends Error {
  readonly operation: string;
  readonly reason: string;
  constructor(operation: string, reason: string) {
    super(`The raw store failed to ${operation}: ${reason}`);
    this.name = "RawStoreUnavailable";
    this.operation = operation;
    this.reason = reason;
  }
}

/**
 * A system error of the store's own I/O (ENOSPC, EACCES, EROFS, EIO, EMFILE, ECONNREFUSED, …,
 * also as the cause of fetch's TypeError) as RawStoreUnavailable, keeping only its code and
 * call; any other error (a bug) as it is.
 */
export function asRawStoreFault(operation: string, error: unknown): unknown {
  if (error instanceof RawStoreUnavailable) return error;
  const system = systemError(error) ?? (error instanceof Error ? systemError(error.cause) : undefined);
  if (!system) return error;
  return new RawStoreUnavailable(operation, system.syscall ? `${system.code} (${system.syscall})` : system.code);
}

function systemError(error: unknown): { code: string; syscall?: string } | undefined {
  const { code, syscall } = (error ?? {}) as { code?: unknown; syscall?: unknown };
  if (typeof code !== "string" || !/^E[A-Z0-9]+$/.test(code)) return undefined;
  return { code, syscall: typeof syscall === "string" && /^[a-z_]+$/.test(syscall) ? syscall : undefined };
}
