import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failFhirExport, fileRawStore, type QuantitySampleRecord, type RawStore, runFhirExport } from "@svc/core";
import type { TestService } from "../helpers/test-service.ts";
import { fhirProblems } from "../helpers/fhir-validator.ts";
import { createUser, startWithTwoTenants, writeSamples, writeSleep, writeWorkoutRecords } from "../helpers/records.ts";
import { withingsSample, writeEveryObservationKind } from "../helpers/fhir-records.ts";

// The engine of FHIR Bulk Data exports (core's fhir/export): the fhir-export job's body run
// directly on export rows, into the service's own file raw store. Each line is the resource
// the base's search and read answer; an export resumes after a crash with every resource once,
// stops when cancelled, and holds only what was updated in (since, transaction time].
// The routes and the IG's flow: fhir-export.test.ts.

let svc: TestService;
let key: string;
let tenantId: string;
let rawStore: RawStore;

type Resource = Record<string, any>;
type ExportFileRow = { file_number: number; resource_type: string; storage_key: string; resource_count: bigint; byte_size: bigint };

const codeSystemBase = () => `${svc.url}/fhir/CodeSystem`;
const depsWith = (store: RawStore) => ({
  db: svc.db,
  jobs: { send: () => Promise.reject(new Error("no run here outlasts its slice")) } as never,
  rawStore: store,
  instance: { publicUrl: () => svc.url, fhirCodeSystemBase: codeSystemBase },
  fhirExports: { retentionHours: 24 },
});



/** Heart rate samples, one a minute from `from`. */
function heartRates(count: number, from: string): QuantitySampleRecord[] {
  return Array.from({ length: count }, (_, i) => withingsSample("heart_rate", 50 + (i % 40), new Date(Date.parse(from) + i * 60_000).toISOString(), { device: "ScanWatch", on_body: true }));
}

/** A queued export row, as a kick-off records it. */
async function queueExport(options: { userId?: string; types?: string[]; since?: Date; transactionTime?: Date } = {}): Promise<string> {
  const rows = await svc.db.$queryRaw<Array<{ id: string }>>`
    INSERT INTO fhir_exports (tenant_id, user_id, resource_types, since, transaction_time, request_url)
    VALUES (${tenantId}::uuid, ${options.userId ?? null}::uuid, ${options.types ?? ["Patient", "Observation"]}::text[], ${options.since ?? null}::timestamptz,
      ${options.transactionTime ?? new Date()}::timestamptz, ${`${svc.url}/v1/fhir/Patient/$export`})
    RETURNING id`;
  return rows[0]!.id;
}

const exportRow = async (id: string) =>
  (await svc.db.$queryRaw<Array<{ state: string; resources_written: bigint; resume_position: unknown; error_code: string | null; expires_at: Date | null; finished_at: Date | null }>>`
    SELECT state, resources_written, resume_position, error_code, expires_at, finished_at FROM fhir_exports WHERE id = ${id}::uuid`)[0]!;

const filesOf = (id: string) =>
  svc.db.$queryRaw<ExportFileRow[]>`
    SELECT file_number, resource_type, storage_key, resource_count, byte_size FROM fhir_export_files WHERE export_id = ${id}::uuid ORDER BY file_number`;

const fileOnDisk = (storageKey: string) => path.join(svc.dataDir, "raw", storageKey);

/** The resources of every file of an export, in file order, after checking each file's row against its bytes. */
async function linesOf(id: string): Promise<Array<{ type: string; resource: Resource }>> {
  const lines: Array<{ type: string; resource: Resource }> = [];
  for (const file of await filesOf(id)) {
    const text = readFileSync(fileOnDisk(file.storage_key), "utf8");
    expect(Buffer.byteLength(text)).toBe(Number(file.byte_size));
    const resources = text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as Resource);
    expect(resources).toHaveLength(Number(file.resource_count));
    expect(text.endsWith("\n")).toBe(true);
    for (const resource of resources) {
      expect(resource.resourceType).toBe(file.resource_type);
      lines.push({ type: file.resource_type, resource });
    }
  }
  return lines;
}

const transactionTimeOf = async (id: string) =>
  (await svc.db.$queryRaw<Array<{ t: Date }>>`SELECT transaction_time AS t FROM fhir_exports WHERE id = ${id}::uuid`)[0]!.t;

/**
 * The raw store as a killed process leaves it: the `fileNumber`-th write of an export keeps only
 * the file's first chunk on disk, then the run fails.
 */
function killedWritingFile(fileNumber: number): RawStore {
  let writes = 0;
  return {
    ...rawStore,
    async write(storageKey, body, maxBytes) {
      if (++writes < fileNumber) return rawStore.write(storageKey, body, maxBytes);
      const first = await body[Symbol.asyncIterator]().next();
      await rawStore.write(storageKey, (async function* () { yield first.value as Uint8Array; })(), maxBytes);
      throw new Error("killed");
    },
  };
}

/** Every Observation of the user as the base's search answers it, in its order. */
async function searchedObservations(userId: string): Promise<Resource[]> {
  const found: Resource[] = [];
  for (let url: string | undefined = `/v1/fhir/Observation?patient=Patient/${userId}&_count=1000`; url; ) {
    const answer = await svc.call(url, { key });
    expect(answer.status, answer.text).toBe(200);
    found.push(...(answer.body.entry ?? []).map((entry: { resource: Resource }) => entry.resource));
    const next = answer.body.link.find((link: { relation: string }) => link.relation === "next")?.url as string | undefined;
    url = next?.slice(svc.url.length);
  }
  return found;
}

beforeAll(async () => {
  ({ svc, key } = await startWithTwoTenants());
  rawStore = fileRawStore(path.join(svc.dataDir, "raw"));
}, 120_000);

afterAll(async () => {
  await svc?.stop();
});

describe("the FHIR export engine", () => {
  beforeAll(async () => {
    // The tenant of `key`: read from a user it created.
    const user = await createUser(svc, key);
    tenantId = (await svc.db.user.findUniqueOrThrow({ where: { id: user }, select: { tenantId: true } })).tenantId;
  });

  it("writes every kind of Observation, each the one the base's search answers, after the user's Patient, every line valid FHIR R4", async () => {
    const userId = await createUser(svc, key);
    await writeEveryObservationKind(svc, userId);
    const id = await queueExport({ userId });
    await runFhirExport(depsWith(rawStore), id);

    const row = await exportRow(id);
    expect(row.state).toBe("completed");
    expect(row.resume_position).toBeNull();
    expect(row.expires_at!.getTime() - row.finished_at!.getTime()).toBe(24 * 3_600_000);
    const files = await filesOf(id);
    expect(files.map((file) => [file.file_number, file.resource_type, file.storage_key])).toEqual([
      [1, "Patient", `${userId}/fhir-export-${id}-1.ndjson`],
      [2, "Observation", `${userId}/fhir-export-${id}-2.ndjson`],
    ]);

    const lines = await linesOf(id);
    for (const { resource } of lines) expect(fhirProblems(resource), JSON.stringify(resource)).toEqual([]);
    const patient = await svc.call(`/v1/fhir/Patient/${userId}`, { key });
    expect(lines[0]!.resource).toEqual(patient.body);
    const observations = lines.slice(1).map((line) => line.resource);
    expect(observations).toEqual(await searchedObservations(userId));
    // heart rate, blood pressure panel, body mass, steps, sleep, workout, daily summary, ECG, meal.
    expect(new Set(observations.map((o) => String(o.id).split("-")[0]))).toEqual(new Set(["qs", "bp", "sleep", "workout", "daily", "ecg", "nutrition"]));
    expect(Number(row.resources_written)).toBe(lines.length);
  });

  it("writes pages of thousands of samples of two merged streams, with other kinds between and at their times, as the search answers them, also resumed mid-way", async () => {
    const userId = await createUser(svc, key);
    const from = Date.parse("2026-08-01T00:00:00Z");
    const sampleAt = (ms: number, value: number, extra: Partial<QuantitySampleRecord>) => withingsSample("heart_rate", value, new Date(from + ms).toISOString(), extra);
    // A watch every 5 s (off for 50 minutes) and a phone every 50 s, off body: the merged view leaves out the phone's samples next to the watch's.
    const watch = Array.from({ length: 12_000 }, (_, i) => sampleAt(i * 5_000, 50 + (i % 40), { source: "garmin", device: "Forerunner 965", on_body: true }))
      .filter((_, i) => i < 3_000 || i >= 3_600);
    const phone = Array.from({ length: 1_300 }, (_, i) => sampleAt(i * 50_000 + 2_000, 70 + (i % 20), { source: "apple", device: "iPhone", on_body: false }));
    for (let i = 0; i < watch.length; i += 5_000) await writeSamples(svc, userId, "garmin", watch.slice(i, i + 5_000));
    await writeSamples(svc, userId, "apple_health", phone);
    // Other kinds inside the samples' span, one at a sample's own time.
    await writeWorkoutRecords(svc, userId, "garmin", [
      { activity_type: "running", start_date: new Date(from + 6_000 * 5_000), end_date: new Date(from + 6_500 * 5_000), distance_meters: 5000, source: "garmin" },
    ]);
    await writeSamples(svc, userId, "withings", [
      withingsSample("blood_pressure_systolic", 118, new Date(from + 2_345_000).toISOString()),
      withingsSample("blood_pressure_diastolic", 77, new Date(from + 2_345_000).toISOString()),
      withingsSample("body_mass", 71.9, new Date(from + 40_000_000).toISOString()),
    ]);
    await writeSleep(svc, userId, "oura", [
      { bedtime_start: new Date(from + 59_000_000), bedtime_end: new Date(from + 60_000_000 + 3 * 3_600_000), total_sleep_seconds: 10_000, source: "oura", device: "Oura Ring 4", on_body: true },
    ]);

    const searched = await searchedObservations(userId);
    // The merge left out the samples of one stream next to the other's, not every sample of either.
    const heartRatesKept = searched.filter((o) => o.code.text === "heart_rate");
    expect(heartRatesKept.length).toBeLessThan(watch.length + phone.length);
    expect(new Set(heartRatesKept.map((o) => o.device?.display))).toEqual(new Set(["Forerunner 965", "iPhone"]));
    const reference = await queueExport({ userId, types: ["Observation"] });
    await runFhirExport(depsWith(rawStore), reference, 4_000);
    const expected = (await linesOf(reference)).map((line) => line.resource);
    expect(expected).toEqual(searched);

    // Killed while writing its third file (cut after its first chunk), then resumed.
    const id = await queueExport({ userId, types: ["Observation"], transactionTime: await transactionTimeOf(reference) });
    const crashing = killedWritingFile(3);
    await expect(runFhirExport(depsWith(crashing), id, 4_000)).rejects.toThrow("killed");
    await runFhirExport(depsWith(rawStore), id, 4_000);
    expect((await linesOf(id)).map((line) => line.resource)).toEqual(expected);
  }, 120_000);

  it("exports every active user of the tenant in id order, Patients first, under the tenant's keys", async () => {
    const users = [await createUser(svc, key), await createUser(svc, key)];
    for (const [index, userId] of users.entries()) await writeSamples(svc, userId, "withings", heartRates(3 + index, "2026-04-01T00:00:00Z"));
    const id = await queueExport({ types: ["Patient", "Observation"] });
    await runFhirExport(depsWith(rawStore), id);

    const files = await filesOf(id);
    expect(files.map((file) => file.storage_key)).toEqual([1, 2].map((n) => `fhir-exports/${tenantId}/${id}/${n}.ndjson`));
    const lines = await linesOf(id);
    const activeUsers = await svc.db.user.findMany({ where: { tenantId, status: "active" }, select: { id: true }, orderBy: { id: "asc" } });
    const patients = lines.filter((line) => line.type === "Patient").map((line) => line.resource.id);
    expect(patients).toEqual(activeUsers.map((user) => user.id));
    const subjects = lines.filter((line) => line.type === "Observation").map((line) => line.resource.subject.reference);
    expect(subjects).toEqual([...subjects].sort());
    for (const userId of users) expect(subjects.filter((s) => s === `Patient/${userId}`)).toHaveLength(3 + users.indexOf(userId));
  });

  it("holds only resources updated after _since and up to the transaction time", async () => {
    const userId = await createUser(svc, key);
    await writeSamples(svc, userId, "withings", heartRates(4, "2026-05-01T00:00:00Z"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const between = new Date();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writeSamples(svc, userId, "withings", heartRates(3, "2026-05-02T00:00:00Z"));
    const all = (await searchedObservations(userId)).map((o) => ({ id: o.id, updated: Date.parse(o.meta.lastUpdated) }));
    expect(all).toHaveLength(7);

    const before = await queueExport({ userId, types: ["Observation"], transactionTime: between });
    const after = await queueExport({ userId, since: between });
    await runFhirExport(depsWith(rawStore), before);
    await runFhirExport(depsWith(rawStore), after);
    const idsOf = async (id: string, type: string) => (await linesOf(id)).filter((line) => line.type === type).map((line) => line.resource.id);
    expect(await idsOf(before, "Observation")).toEqual(all.filter((o) => o.updated <= between.getTime()).map((o) => o.id));
    expect(await idsOf(after, "Observation")).toEqual(all.filter((o) => o.updated > between.getTime()).map((o) => o.id));
    expect(await idsOf(before, "Patient")).toEqual([]);
    // The user's row was created before `between`: its Patient has not changed since.
    expect(await idsOf(after, "Patient")).toEqual([]);
  });

  it("resumes after a crash mid-file from its last durable file, every resource once", async () => {
    const userId = await createUser(svc, key);
    await writeSamples(svc, userId, "withings", heartRates(40, "2026-06-01T00:00:00Z"));
    const reference = await queueExport({ userId });
    await runFhirExport(depsWith(rawStore), reference, 7);
    const expected = (await linesOf(reference)).map((line) => line.resource);
    expect(expected).toHaveLength(41);

    // The third file is cut after its first bytes, as by a killed process: they stay on disk.
    const id = await queueExport({ userId, transactionTime: await transactionTimeOf(reference) });
    const crashing = killedWritingFile(3);
    await expect(runFhirExport(depsWith(crashing), id, 7)).rejects.toThrow("killed");
    const cut = await exportRow(id);
    expect(cut.state).toBe("running");
    expect((await filesOf(id)).map((file) => file.file_number)).toEqual([1, 2]);
    expect(cut.resume_position).toMatchObject({ fileNumber: 3, type: "Observation", user: userId });

    await runFhirExport(depsWith(rawStore), id, 7);
    expect((await exportRow(id)).state).toBe("completed");
    const files = await filesOf(id);
    expect(files.map((file) => file.file_number)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(files.map((file) => Number(file.resource_count))).toEqual([1, 7, 7, 7, 7, 7, 5]);
    expect((await linesOf(id)).map((line) => line.resource)).toEqual(expected);
    expect(Number((await exportRow(id)).resources_written)).toBe(41);
  });

  it("stops when cancelled, records no further file and leaves no file it wrote after the cancel", async () => {
    const userId = await createUser(svc, key);
    await writeSamples(svc, userId, "withings", heartRates(20, "2026-07-01T00:00:00Z"));
    const id = await queueExport({ userId });
    let writes = 0;
    const cancelling: RawStore = {
      ...rawStore,
      async write(storageKey, body, maxBytes) {
        // DELETE on the status URL while the second file is being written.
        if (++writes === 2) await svc.db.$executeRaw`UPDATE fhir_exports SET state = 'cancelled', finished_at = now() WHERE id = ${id}::uuid`;
        return rawStore.write(storageKey, body, maxBytes);
      },
    };
    await runFhirExport(depsWith(cancelling), id, 7);
    expect(writes).toBe(2);
    expect((await exportRow(id)).state).toBe("cancelled");
    const files = await filesOf(id);
    expect(files.map((file) => file.file_number)).toEqual([1]);
    expect(existsSync(fileOnDisk(`${userId}/fhir-export-${id}-2.ndjson`))).toBe(false);
    // A cancelled export is not started again.
    await runFhirExport(depsWith(rawStore), id, 7);
    expect(await filesOf(id)).toHaveLength(1);
  });

  it("records a failed export with the fault's code and keeps its answer for the retention period", async () => {
    const id = await queueExport({});
    await failFhirExport(depsWith(rawStore), id, new Error("anything"));
    const row = await exportRow(id);
    expect(row.state).toBe("failed");
    expect(row.error_code).toBe("export_failed");
    expect(row.expires_at!.getTime() - row.finished_at!.getTime()).toBe(24 * 3_600_000);
  });
});
