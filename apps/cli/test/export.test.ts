import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { createTenant, createUser, writeQuantitySamples } from "@svc/core";
import { createDatabase, type Database } from "@svc/db";
import { createTestDatabase } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const main = path.resolve(import.meta.dirname, "../src/main.ts");

let databaseUrl: string;
let db: Database;
const folders: string[] = [];

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  db = createDatabase(databaseUrl, { max: 2 });
});
afterAll(async () => {
  await db?.$disconnect();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function svc(args: string[]) {
  return run(process.execPath, [main, ...args], { env: { PATH: process.env.PATH, DATABASE_URL: databaseUrl, SVC_PUBLIC_URL: "https://svc.example" }, timeout: 60_000 }).then(
    (done) => ({ code: 0, ...done }),
    (failed: { code: number; stdout: string; stderr: string }) => failed,
  );
}

const newFolder = () => {
  const folder = mkdtempSync(path.join(tmpdir(), "svc-export-"));
  folders.push(folder);
  return folder;
};

const linesOf = (file: string) => readFileSync(file, "utf8").split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));

describe("svc export", () => {
  it("writes a tenant's Patients and Observations as NDJSON files and prints them", { timeout: 90_000 }, async () => {
    const { tenant_id: tenantId } = await createTenant(db, "export");
    const users = [(await createUser(db, tenantId, "a")).id, (await createUser(db, tenantId, "b")).id].sort();
    for (const userId of users) {
      await writeQuantitySamples(db, { userId, provider: "withings" }, [
        { type: "heart_rate", value: 60, start_date: new Date("2026-01-01T08:00:00Z"), source: "withings" },
        { type: "body_mass", value: 70.5, start_date: new Date("2026-01-01T08:05:00Z"), source: "withings" },
      ]);
    }
    const out = newFolder();
    const done = await svc(["export", "--tenant", tenantId, "--out", out]);
    expect(done.code, done.stderr).toBe(0);
    expect(done.stdout).toContain("Patient-1.ndjson  Patient  2 resources");
    expect(done.stdout).toContain("Observation-2.ndjson  Observation  4 resources");
    expect(readdirSync(out).sort()).toEqual(["Observation-2.ndjson", "Patient-1.ndjson"]);
    expect(linesOf(path.join(out, "Patient-1.ndjson")).map((patient) => patient.id)).toEqual(users);
    const observations = linesOf(path.join(out, "Observation-2.ndjson"));
    expect(observations.map((o) => o.subject.reference)).toEqual(users.flatMap((id) => [`Patient/${id}`, `Patient/${id}`]));
    expect(observations.every((o) => o.meta.lastUpdated === o.issued)).toBe(true);
    expect(JSON.stringify(observations)).toContain("https://svc.example/fhir/CodeSystem");

    // One user and one type; files already there are never overwritten.
    const one = await svc(["export", "--tenant", tenantId, "--user", users[1]!, "--type", "Patient", "--out", out]);
    expect(one.code).toBe(1);
    expect(one.stderr).toContain("EEXIST");
    const other = newFolder();
    const again = await svc(["export", "--tenant", tenantId, "--user", users[1]!, "--type", "Observation", "--since", "2000-01-01T00:00:00Z", "--out", other]);
    expect(again.code, again.stderr).toBe(0);
    expect(readdirSync(other)).toEqual(["Observation-1.ndjson"]);
    expect(linesOf(path.join(other, "Observation-1.ndjson")).map((o) => o.subject.reference)).toEqual([`Patient/${users[1]}`, `Patient/${users[1]}`]);
  });

  it("writes a file of many chunks whole: the writer's buffers are refilled only once each chunk is on disk", { timeout: 90_000 }, async () => {
    const { tenant_id: tenantId } = await createTenant(db, "export-big");
    const userId = (await createUser(db, tenantId, "big")).id;
    const first = Date.parse("2026-01-01T00:00:00Z");
    const samples = Array.from({ length: 8_000 }, (_, i) => ({ type: "heart_rate", value: 50 + (i % 90), start_date: new Date(first + i * 60_000), source: "withings" }));
    await writeQuantitySamples(db, { userId, provider: "withings" }, samples);
    const out = newFolder();
    const done = await svc(["export", "--tenant", tenantId, "--type", "Observation", "--out", out]);
    expect(done.code, done.stderr).toBe(0);
    const file = path.join(out, "Observation-1.ndjson");
    // Several 1 MiB chunks.
    expect(readFileSync(file).length).toBeGreaterThan(3 << 20);
    const observations = linesOf(file);
    expect(observations.map((o) => o.valueQuantity.value)).toEqual(samples.map((sample) => sample.value));
    expect(observations.map((o) => o.effectiveDateTime)).toEqual(samples.map((sample) => sample.start_date.toISOString()));
  });

  it("refuses an unknown type, a bad instant, an unknown tenant and a user of another tenant; writes nothing", { timeout: 90_000 }, async () => {
    const { tenant_id: tenantId } = await createTenant(db, "export-2");
    const { tenant_id: otherTenant } = await createTenant(db, "export-3");
    const stranger = (await createUser(db, otherTenant, "x")).id;
    const out = newFolder();
    for (const args of [
      ["--type", "Encounter"],
      ["--since", "yesterday"],
      ["--user", stranger],
    ]) {
      const refused = await svc(["export", "--tenant", tenantId, ...args, "--out", out]);
      expect(refused.code, args.join(" ")).toBe(1);
    }
    const unknown = await svc(["export", "--tenant", "3f0d0a7e-4c57-4b9f-8f67-4c2a8b8e7a10", "--out", out]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No such tenant");
    expect(readdirSync(out)).toEqual([]);
  });
});
