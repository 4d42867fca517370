// What a body's first bytes tell about it, without a parser: a FIT file header, an XML
// document, a zip archive. Light on purpose: the server reads these before it stores an upload.

/** A FIT file header: its size (12 or 14) in byte 0 and ".FIT" in bytes 8 to 11. */
export function hasFitSignature(bytes: Uint8Array): boolean {
  return (bytes[0] === 12 || bytes[0] === 14) && bytes[8] === 0x2e && bytes[9] === 0x46 && bytes[10] === 0x49 && bytes[11] === 0x54;
}

/** Starts with `<` after an optional byte order mark (UTF-8 or UTF-16) and whitespace. */
export function looksLikeXml(bytes: Uint8Array): boolean {
  let i = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  else if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return true;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return bytes[i] === 0x3c;
}

/**
 * Whether bytes begin as a FIT file (its header) or an XML document (a GPX or TCX file) do:
 * never so a line of base64, so an upload of activity files sent as a file's own bytes.
 */
export function startsLikeActivityFile(bytes: Uint8Array): boolean {
  return hasFitSignature(bytes) || looksLikeXml(bytes);
}

/** A zip archive: a local file header (PK\x03\x04), or the end record of an empty archive (PK\x05\x06). */
export function hasZipSignature(bytes: Uint8Array): boolean {
  return bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 0x03 && bytes[3] === 0x04) || (bytes[2] === 0x05 && bytes[3] === 0x06));
}
