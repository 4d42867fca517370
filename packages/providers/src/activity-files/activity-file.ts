// Activity files (FIT, GPX, TCX) as records: the format is told from the content (a FIT
// header with the ".FIT" signature, or an XML root element matched by namespace URI), never
// from the file name. The upload route calls checkActivityFile to answer 400 before it
// accepts a file, then parseActivityFile; neither throws on any input.

import { emptyParsedRecords, type ParsedRecords } from "../parsed-records.ts";
import { checkFit, parseFit } from "./fit.ts";
import { parseGpx } from "./gpx.ts";
import { fileIdOf, fileRejection } from "./shared.ts";
import { parseTcx } from "./tcx.ts";
import { GPX_NAMESPACES, readXml, TCX_NAMESPACE, type XmlElement } from "./xml.ts";

export type ActivityFileFormat = "fit" | "gpx" | "tcx";

type Opened = { format: "fit" } | { format: "gpx" | "tcx"; root: XmlElement } | { error: string };

/**
 * Why the file cannot be read, or null when it can: a FIT file must have a FIT header, be
 * complete, pass its CRC checks and decode (every chained file in it); GPX and TCX must be
 * well-formed XML with a `gpx` (GPX 1.1) or `TrainingCenterDatabase` (TCX v2) root. The
 * reason names the problem and where, never a value from the file.
 */
export function checkActivityFile(bytes: Uint8Array, fileName?: string): string | null {
  const opened = open(bytes, fileName);
  if ("error" in opened) return opened.error;
  return opened.format === "fit" ? checkFit(bytes) : null;
}

/**
 * The records in an activity file. The provider (`activity_files`) is the caller's to set;
 * every workout's and heartbeat series' external_id starts with a hash of the file's bytes, so
 * the same file uploaded again gives the same records. A file checkActivityFile refuses gives
 * no records and one rejection (kind `activity_file`) with that reason.
 */
export function parseActivityFile(bytes: Uint8Array, fileName?: string): ParsedRecords {
  const opened = open(bytes, fileName);
  if ("error" in opened) {
    const out = emptyParsedRecords();
    out.rejected.push(fileRejection(opened.error));
    return out;
  }
  const context = { fileId: fileIdOf(bytes), fileName: cleanFileName(fileName) };
  if (opened.format === "fit") return parseFit(bytes, context);
  return opened.format === "gpx" ? parseGpx(opened.root, context) : parseTcx(opened.root, context);
}

/** The format the content has, or null when it is none of them (XML is parsed to tell GPX from TCX). */
export function detectActivityFileFormat(bytes: Uint8Array): ActivityFileFormat | null {
  const opened = open(bytes, undefined);
  return "error" in opened ? null : opened.format;
}

function open(bytes: Uint8Array, fileName: string | undefined): Opened {
  if (bytes.length === 0) return { error: "the file is empty" };
  if (hasFitSignature(bytes)) return { format: "fit" };
  if (!looksLikeXml(bytes)) {
    const hint = /\.fit$/i.test(fileName ?? "") ? " (its name ends in .fit, but it does not start with a FIT file header)" : "";
    return { error: `the file is not a FIT, GPX or TCX file${hint}` };
  }
  const xml = readXml(bytes);
  if ("error" in xml) return { error: xml.error };
  const { root } = xml;
  if (root.name === "gpx" && GPX_NAMESPACES.has(root.ns)) return { format: "gpx", root };
  if (root.name === "TrainingCenterDatabase" && root.ns === TCX_NAMESPACE) return { format: "tcx", root };
  return {
    error:
      "the XML root element is neither GPX 1.1 <gpx> (http://www.topografix.com/GPX/1/1) nor TCX v2 <TrainingCenterDatabase> " +
      "(http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2); namespaces are matched by URI",
  };
}

/**
 * Whether bytes begin as a FIT file (its header) or an XML document (a GPX or TCX file) do:
 * never so a line of base64, so an upload of activity files sent as a file's own bytes.
 */
export function startsLikeActivityFile(bytes: Uint8Array): boolean {
  return hasFitSignature(bytes) || looksLikeXml(bytes);
}

/** A FIT file header: its size (12 or 14) in byte 0 and ".FIT" in bytes 8 to 11. */
function hasFitSignature(bytes: Uint8Array): boolean {
  return (bytes[0] === 12 || bytes[0] === 14) && bytes[8] === 0x2e && bytes[9] === 0x46 && bytes[10] === 0x49 && bytes[11] === 0x54;
}

/** Starts with `<` after an optional byte order mark (UTF-8 or UTF-16) and whitespace. */
function looksLikeXml(bytes: Uint8Array): boolean {
  let i = 0;
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
  else if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return true;
  while (i < bytes.length && (bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)) i++;
  return bytes[i] === 0x3c;
}

/** The file name's last path segment, at most 255 characters; undefined when empty. */
function cleanFileName(fileName: string | undefined): string | undefined {
  const name = fileName?.split(/[\\/]/).pop()?.trim().slice(0, 255);
  return name ? name : undefined;
}
