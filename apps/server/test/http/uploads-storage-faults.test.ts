// The raw store failing (a disk that is full, a folder it cannot write) is a fault of the service
// that clears: uploads answer 503 with Retry-After, as while the database is away, and neither
// the answer nor the log names a path. The faults are real ones the kernel gives root too.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, mintToken } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { heartRateLine, uploadNdjson } from "../helpers/uploads.ts";

/** Whether this process may mount a tmpfs (root with CAP_SYS_ADMIN): a full disk is then a real one. */
function canMountTmpfs(): boolean {
  const probe = mkdtempSync(path.join(tmpdir(), "svc-mount-probe-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", probe], { stdio: "ignore" });
    execFileSync("umount", [probe], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  } finally {
    rmSync(probe, { recursive: true, force: true });
  }
}

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-raw-faults-"));
const rawDir = path.join(dataDir, "raw");
let svc: TestService;
let token: string;
let user: string;

beforeAll(async () => {
  svc = await startTestService({ SVC_DATA_DIR: dataDir });
  const key = (await svc.createTenant()).api_key;
  user = await createUser(svc, key);
  token = await mintToken(svc, key, user, ["upload"]);
});
afterAll(async () => {
  await svc?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const upload = (bpm: number) => uploadNdjson(svc, token, "bluetooth", [heartRateLine(bpm, `2026-03-01T10:00:${String(bpm % 60).padStart(2, "0")}Z`)]);

/** Uploads once while the raw store fails: the answer, and the log lines it wrote. */
async function failingUpload(bpm: number) {
  const logged = svc.logs.length;
  const answer = await upload(bpm);
  const lines = svc.logs.slice(logged);
  return { answer, lines, parsed: lines.map((line) => JSON.parse(line) as { level: number; msg: string; err?: Record<string, unknown> }) };
}

function expectUnavailable({ answer, lines, parsed }: Awaited<ReturnType<typeof failingUpload>>, reason: RegExp) {
  expect(answer.status, answer.text).toBe(503);
  expect(answer.headers.get("content-type")).toContain("application/problem+json");
  expect(answer.headers.get("retry-after")).toBe("5");
  expect(answer.body.detail).toBe("The raw data store is unavailable; retry later.");
  expect(answer.text).not.toContain(dataDir);
  // One warning with the store's error code; no path anywhere in the log.
  const warning = parsed.find((line) => line.err?.type === "RawStoreUnavailable");
  expect(warning?.level).toBe(40);
  expect(String(warning?.err?.reason)).toMatch(reason);
  expect(lines.join("\n")).not.toContain(dataDir);
  expect(parsed.filter((line) => line.msg === "unhandled error")).toEqual([]);
}

describe("an upload while the raw store fails", () => {
  it("answers 503 with Retry-After when the raw folder cannot be made (ENOTDIR), keeps nothing, and takes uploads again once it can", async () => {
    writeFileSync(rawDir, "a file where the raw folder belongs");
    try {
      expectUnavailable(await failingUpload(60), /^ENOTDIR/);
      expect(await svc.db.rawObject.count({ where: { userId: user } })).toBe(0);
    } finally {
      rmSync(rawDir, { force: true });
    }
    const answer = await upload(61);
    expect(answer.status, answer.text).toBe(202);
  });

  it.skipIf(!canMountTmpfs())("answers 503 with Retry-After when the disk is full (ENOSPC) and keeps nothing", async () => {
    const before = await svc.db.rawObject.count({ where: { userId: user } });
    mkdirSync(rawDir, { recursive: true });
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", rawDir]);
    try {
      // Fill it up: every later write fails with ENOSPC.
      try {
        writeFileSync(path.join(rawDir, "filler"), Buffer.alloc(128 * 1024));
      } catch {
        // ENOSPC once full, as intended.
      }
      expectUnavailable(await failingUpload(62), /^ENOSPC/);
      expect(await svc.db.rawObject.count({ where: { userId: user } })).toBe(before);
    } finally {
      execFileSync("umount", [rawDir]);
    }
    const answer = await upload(63);
    expect(answer.status, answer.text).toBe(202);
  });
});
