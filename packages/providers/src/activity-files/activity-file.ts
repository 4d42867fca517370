// Activity files (FIT, GPX, TCX) as records: the format is told from the content (a FIT
// header with the ".FIT" signature, or an XML root element matched by namespace URI), never
// from the file name. The upload route calls checkActivityFile to answer 400 before it
// accepts a file, then parseActivityFile; neither throws on any input.

import { emptyParsedRecords, type ParsedRecords } from "../parsed-records.ts";
import { hasFitSignature, looksLikeXml } from "../uploads/body-signatures.ts";
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

/** The file name's last path segment, at most 255 characters; undefined when empty. */
function cleanFileName(fileName: string | undefined): string | undefined {
  const name = fileName?.split(/[\\/]/).pop()?.trim().slice(0, 255);
  return name ? name : undefined;
}
