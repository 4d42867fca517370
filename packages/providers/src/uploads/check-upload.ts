import { AppError, type RawObjectSource } from "@svc/core";
import { checkActivityFile } from "../activity-files/activity-file.ts";
import { checkAppleHealthLine, parseAppleHealthExport } from "../apple-health/index.ts";
import { checkBluetoothLine } from "../bluetooth/index.ts";
import { checkHealthConnectLine } from "../health-connect/index.ts";
import { MalformedUpload } from "../parsed-records.ts";
import { checkXiaomiUpload } from "../xiaomi/index.ts";
import { appleHealthExportXmlOfZip } from "./apple-health-zip.ts";
import { bodyLines, decodedBody } from "./body-lines.ts";
import { startsLikeActivityFile } from "./body-signatures.ts";
import { decodeBase64Line } from "./base64-lines.ts";
import { ACTIVITY_FILES_HOW_TO_SEND, MAX_DECODED_BYTES, MAX_LINE_BYTES, type UploadFormat } from "./upload-routes.ts";

type LineCheck = (line: string, lineNumber: number) => string | null;

/**
 * Checks a stored upload before it is accepted: every line must be one the format's
 * parser can read. The first that is not is a 400 naming it; nothing of the upload is kept.
 */
export async function checkUpload(format: UploadFormat, source: RawObjectSource): Promise<void> {
  // A zip is read by ranges (its directory is at its end), never as one stream of bytes.
  if (format === "apple-health-export-zip") return checkAppleHealthExport(appleHealthExportXmlOfZip(source));
  const body = decodedBody(source.read(), MAX_DECODED_BYTES);
  switch (format) {
    case "apple-health-ndjson":
      return checkEachLine(body, checkAppleHealthLine);
    case "health-connect-ndjson":
      return checkEachLine(body, checkHealthConnectLine);
    case "bluetooth-ndjson":
      return checkEachLine(body, checkBluetoothLine);
    case "activity-files-base64":
      await refuseRawActivityFile(source);
      return checkEachLine(body, (line, number) => {
        const file = decodeBase64Line(line, number);
        return checkActivityFile(file);
      });
    case "xiaomi-csv": {
      const problem = checkXiaomiUpload(await bodyText(body));
      if (problem) throw new AppError("bad_request", `line ${problem.line}: ${problem.reason}`);
      return;
    }
    case "apple-health-export-xml":
      return checkAppleHealthExport(body);
  }
}

/** 400 for a body that is a FIT, GPX or TCX file's own bytes (sent as text/plain), saying how to send it. */
async function refuseRawActivityFile(source: RawObjectSource): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of source.readRange(0, Math.min(source.size, 64))) chunks.push(Buffer.from(chunk));
  if (startsLikeActivityFile(Buffer.concat(chunks))) {
    throw new AppError("bad_request", `The body is a FIT, GPX or TCX file's own bytes, not lines of base64. ${ACTIVITY_FILES_HOW_TO_SEND}`);
  }
}

/** The export is read through once: what the ETL will parse is known to be well-formed. */
async function checkAppleHealthExport(xml: AsyncIterable<Uint8Array>): Promise<void> {
  try {
    for await (const batch of parseAppleHealthExport(xml)) void batch;
  } catch (error) {
    if (error instanceof MalformedUpload) throw new AppError("bad_request", `${error.locator}: ${error.message}`);
    throw error;
  }
}

async function checkEachLine(body: AsyncIterable<Uint8Array>, check: LineCheck): Promise<void> {
  let lines = 0;
  for await (const { line, number } of bodyLines(body, MAX_LINE_BYTES)) {
    if (line.trim() === "") continue;
    lines++;
    const reason = check(line, number);
    if (reason !== null) throw new AppError("bad_request", reason.startsWith("line ") ? reason : `line ${number}: ${reason}`);
  }
  if (lines === 0) throw new AppError("bad_request", "The body has no lines.");
}

/** A whole (small) body as text; CSV data copies are read at once. */
export async function bodyText(body: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString("utf8");
}
