import { AppError, type ParsedRecords, type RawObjectParser, type RawObjectSource } from "@svc/core";
import { parseActivityFile } from "../activity-files/activity-file.ts";
import { parseAppleHealthExport, parseAppleHealthNdjson } from "../apple-health/index.ts";
import { parseBluetoothLines } from "../bluetooth/index.ts";
import { parseHealthConnectNdjson } from "../health-connect/index.ts";
import { MalformedUpload } from "../parsed-records.ts";
import { PROVIDER_REGISTRY } from "../registry.ts";
import { parseXiaomiCsvBatches } from "../xiaomi/index.ts";
import { appleHealthExportXmlOfZip } from "./apple-health-zip.ts";
import { decodeBase64Line } from "./base64-lines.ts";
import { bodyLines, decodedBody } from "./body-lines.ts";
import { bodyText } from "./check-upload.ts";
import { locatedAtLine } from "./line-locators.ts";
import { MAX_DECODED_BYTES, MAX_LINE_BYTES, type UploadFormat } from "./upload-routes.ts";

/**
 * The ETL's parser of a stored upload: batches of records by the raw object's format. A
 * body that cannot be read at all is an AppError bad_request (the raw object fails).
 */
export const parseRawObject: RawObjectParser = (raw, source) => withReadableErrors(parseByFormat(raw.format as UploadFormat, source));

async function* parseByFormat(format: UploadFormat, source: RawObjectSource): AsyncGenerator<ParsedRecords> {
  // A zip is read by ranges (its directory is at its end), never as one stream of bytes.
  if (format === "apple-health-export-zip") return yield* parseAppleHealthExport(appleHealthExportXmlOfZip(source));
  const body = decodedBody(source.read(), MAX_DECODED_BYTES);
  switch (format) {
    case "apple-health-ndjson":
      return yield* parseAppleHealthNdjson(lineTexts(body));
    case "apple-health-export-xml":
      return yield* parseAppleHealthExport(body);
    case "health-connect-ndjson":
      return yield* parseHealthConnectNdjson(lineTexts(body));
    case "xiaomi-csv":
      return yield* parseXiaomiCsvBatches(await bodyText(body));
    case "bluetooth-ndjson": {
      const lines: Array<{ line: string; number: number }> = [];
      for await (const line of bodyLines(body, MAX_LINE_BYTES)) lines.push(line);
      return yield parseBluetoothLines(lines);
    }
    case "activity-files-base64":
      for await (const { line, number } of bodyLines(body, MAX_LINE_BYTES)) {
        if (line.trim() !== "") yield locatedAtLine(parseActivityFile(decodeBase64Line(line, number)), number);
      }
      return;
    default: {
      // A payload a connector pulled or was pushed: one JSON document per raw object.
      const parse = PROVIDER_REGISTRY.payloadParser(format);
      if (!parse) throw new AppError("bad_request", `Raw objects of format ${String(format)} cannot be parsed by this build.`);
      return yield parse(JSON.parse(await bodyText(body)));
    }
  }
}

async function* lineTexts(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  for await (const { line } of bodyLines(body, MAX_LINE_BYTES)) yield line;
}

async function* withReadableErrors(batches: AsyncGenerator<ParsedRecords>): AsyncGenerator<ParsedRecords> {
  try {
    yield* batches;
  } catch (error) {
    if (error instanceof MalformedUpload) throw new AppError("bad_request", `${error.locator}: ${error.message}`);
    throw error;
  }
}
