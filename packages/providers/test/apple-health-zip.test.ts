import { readFileSync } from "node:fs";
import { AppError, type ParsedRecords, type RawObjectSource } from "@svc/core";
import { fixturePath } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { checkUpload, parseRawObject } from "../src/index.ts";
import { isAppleHealthExportXml } from "../src/uploads/apple-health-zip.ts";
import { MAX_ZIP_RATIO, zipEntry } from "../src/uploads/zip-entry.ts";
import { zipOf } from "./helpers/zip-writer.ts";

const EXPORT_XML = readFileSync(fixturePath("applehealth_export_alxdrcirilo.xml"));

/** A stored object in memory; every ranged read is noted. */
function sourceOf(bytes: Buffer): RawObjectSource & { ranges: Array<[number, number]> } {
  const ranges: Array<[number, number]> = [];
  return {
    size: bytes.length,
    ranges,
    read: async function* () {
      yield bytes;
    },
    readRange: async function* (start: number, end: number) {
      ranges.push([start, end]);
      // Small chunks, as a store streams them.
      for (let i = start; i < end; i += 1000) yield bytes.subarray(i, Math.min(i + 1000, end));
    },
  };
}

async function parsed(format: string, source: RawObjectSource): Promise<ParsedRecords[]> {
  const batches: ParsedRecords[] = [];
  for await (const batch of parseRawObject({ format, contentType: "" }, source)) batches.push(batch);
  return batches;
}

async function bytesOf(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const all: Buffer[] = [];
  for await (const chunk of chunks) all.push(Buffer.from(chunk));
  return Buffer.concat(all);
}

/** The Health app's export.zip: export.xml among the other files it holds. */
const healthExportZip = (xml: Buffer | string = EXPORT_XML) =>
  zipOf([
    { name: "apple_health_export/export_cda.xml", data: "<ClinicalDocument>not the export</ClinicalDocument>" },
    { name: "apple_health_export/workout-routes/route_2024-01-01_8.10am.gpx", data: "<gpx/>" },
    { name: "apple_health_export/electrocardiograms/ecg_2024-01-01.csv", data: "Name,Alice\n" },
    { name: "__MACOSX/apple_health_export/._export.xml", data: "\u0000\u0005\u0016\u0007 resource fork" },
    { name: "apple_health_export/export.xml", data: xml },
  ]);

const problemOf = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

describe("a zipped Apple Health export", () => {
  it("gives the same records as its export.xml uploaded plain", async () => {
    const fromZip = await parsed("apple-health-export-zip", sourceOf(healthExportZip()));
    const fromXml = await parsed("apple-health-export-xml", sourceOf(EXPORT_XML));
    expect(fromZip).toEqual(fromXml);
    expect(fromZip.flatMap((b) => b.quantitySamples ?? [])).toHaveLength(6);
    await expect(checkUpload("apple-health-export-zip", sourceOf(healthExportZip()))).resolves.toBeUndefined();
  });

  it("finds export.xml in any folder, stored or deflated, but not export_cda.xml or macOS's copies", async () => {
    expect(["export.xml", "apple_health_export/export.xml", "Export/apple_health_export/export.xml"].every(isAppleHealthExportXml)).toBe(true);
    expect(["apple_health_export/export_cda.xml", "__MACOSX/apple_health_export/export.xml", "myexport.xml"].some(isAppleHealthExportXml)).toBe(false);
    const stored = zipOf([{ name: "export.xml", data: EXPORT_XML, store: true }]);
    expect(await parsed("apple-health-export-zip", sourceOf(stored))).toEqual(await parsed("apple-health-export-xml", sourceOf(EXPORT_XML)));
  });

  it("reads the directory of a zip of many files in a few ranged reads, never the whole object", async () => {
    const routes = Array.from({ length: 2000 }, (_, i) => ({ name: `apple_health_export/workout-routes/route_${i}.gpx`, data: `<gpx>${i}</gpx>` }));
    const source = sourceOf(zipOf([...routes, { name: "apple_health_export/export.xml", data: EXPORT_XML }]));
    const xml = await bytesOf(zipEntry(source, isAppleHealthExportXml, "export.xml", 1e9));
    expect(xml.equals(EXPORT_XML)).toBe(true);
    expect(source.ranges.length).toBeLessThan(10);
  });

  it("refuses, as a 400 naming the problem, a zip without export.xml, a body that is no zip, a cut or damaged zip", async () => {
    const cases: Array<[Buffer, RegExp]> = [
      [zipOf([{ name: "apple_health_export/export_cda.xml", data: "<x/>" }]), /^The zip holds no apple_health_export\/export.xml\.$/],
      [EXPORT_XML, /^The body is not a readable zip archive \(End of central directory record signature not found/],
      [healthExportZip().subarray(0, 300), /^The body is not a readable zip archive/],
      [Buffer.alloc(0), /^The body is not a readable zip archive/],
    ];
    // The deflated bytes of export.xml overwritten: the entry cannot be inflated (or is no XML).
    const damaged = zipOf([{ name: "export.xml", data: EXPORT_XML }]);
    damaged.fill(0xff, 60, 200);
    cases.push([damaged, /export.xml in the zip cannot be decompressed|line/]);
    for (const [bytes, detail] of cases) {
      // One at a time: a second promise made up front could reject before it is awaited (an unhandled rejection).
      for (const attempt of [() => checkUpload("apple-health-export-zip", sourceOf(bytes)), () => parsed("apple-health-export-zip", sourceOf(bytes))]) {
        const error = await problemOf(attempt());
        expect(error).toBeInstanceOf(AppError);
        expect(error).toMatchObject({ code: "bad_request" });
        expect((error as AppError).detail).toMatch(detail);
      }
    }
  });

  it("refuses an entry compressed past the ratio of a zip bomb, and one larger than the cap once decompressed", async () => {
    const bomb = `<?xml version="1.0"?>\n<HealthData>${" ".repeat(4 * 1024 * 1024)}</HealthData>`;
    const zip = zipOf([{ name: "apple_health_export/export.xml", data: bomb }]);
    expect(zip.length * MAX_ZIP_RATIO).toBeLessThan(bomb.length);
    const error = await problemOf(checkUpload("apple-health-export-zip", sourceOf(zip)));
    expect(error).toMatchObject({ code: "bad_request", detail: expect.stringMatching(/possible zip bomb/) });

    const big = await problemOf(bytesOf(zipEntry(sourceOf(healthExportZip()), isAppleHealthExportXml, "export.xml", 1000)));
    expect(big).toMatchObject({ code: "payload_too_large", detail: "export.xml in the zip is larger than 1000 bytes once decompressed." });
  });

  it("lets a failing store read through as it is (retried), not as a broken zip", async () => {
    const failing: RawObjectSource = {
      size: 10_000,
      read: () => (async function* () {})(),
      readRange: () =>
        (async function* () {
          throw new Error("the disk is gone");
        })(),
    };
    const error = await problemOf(parsed("apple-health-export-zip", failing));
    expect(error).not.toBeInstanceOf(AppError);
    expect((error as Error).message).toBe("the disk is gone");
  });
});
