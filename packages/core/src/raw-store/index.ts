export { type RawStore, RawObjectTooLarge } from "./raw-store.ts";
export { fileRawStore } from "./file-raw-store.ts";
