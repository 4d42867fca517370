import type { RawObjectSource } from "@svc/core";
import { MAX_DECODED_BYTES } from "./upload-routes.ts";
import { zipEntry } from "./zip-entry.ts";

/**
 * export.xml of the Health app's export.zip (`apple_health_export/export.xml`; any folder
 * is accepted, export_cda.xml and macOS's `__MACOSX/` copies are not it).
 */
export function isAppleHealthExportXml(name: string): boolean {
  return !name.startsWith("__MACOSX/") && (name === "export.xml" || name.endsWith("/export.xml"));
}

/** The decompressed bytes of export.xml in a stored export.zip. */
export function appleHealthExportXmlOfZip(source: RawObjectSource): AsyncGenerator<Uint8Array> {
  return zipEntry(source, isAppleHealthExportXml, "apple_health_export/export.xml", MAX_DECODED_BYTES);
}
