export { type RawStore, type RawObjectSource, rawObjectSource, RawObjectTooLarge, RawStoreUnavailable } from "./raw-store.ts";
export { fileRawStore } from "./file-raw-store.ts";
export { s3RawStore, type S3RawStoreOptions } from "./s3-raw-store.ts";
