// Benchmark: opening a share link in real Chromium. A watch wearer's days are seeded with the
// CLI's `svc dev seed` generator (Apple Watch heart rate every BENCH_HR_EVERY seconds, iPhone
// and watch steps, energy, sleep, workouts, SpO2, ECG, Garmin, Oura, Withings, meals) into an
// embedded PostgreSQL; a server runs in its own process. Shares are made through the API:
//   a. BENCH_SHARE_DAYS days (90) of every category, the default daily detail;
//   b. 7 days with full detail (every sample), compressed;
//   c. b's file rewritten as shares were before issue 21 (no compression, no zone, no detail).
// For each: the encrypted file's size, the Bundle's size and Observations, how long the server
// took to make it, and the time from navigation to the rendered summary (the Overview shown
// and the charts on the first screen drawn; the others are drawn as they near the screen) on a
// 1440x900 desktop page and on a 390x844 phone page with 4x CPU slowdown (Chrome's mid-range
// mobile preset), each in a new browser context (nothing cached), the median of
// BENCH_ITERATIONS. Prints figures; asserts nothing.
//   npm run bench -- share        (BENCH_SHARE_DAYS=90 BENCH_HR_EVERY=5 BENCH_ITERATIONS=5)
import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { createTenant, createUser, decryptJwe, encryptJwe, parseShlink } from "@svc/core";
import { applyMigrations, createDatabase, openEmbeddedPostgres } from "@svc/db";
import { seedUser } from "../apps/cli/src/seed/seed-user.ts";
import { launchBrowser } from "../packages/testing/src/browser.ts";

const shareDays = Number(process.env.BENCH_SHARE_DAYS ?? 90);
const heartRateEvery = Number(process.env.BENCH_HR_EVERY ?? 5);
const iterations = Number(process.env.BENCH_ITERATIONS ?? 5);
const DAY_MS = 86_400_000;
const MB = 1_000_000;

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-bench-"));
chmodSync(dataDir, 0o755);
const postgres = await openEmbeddedPostgres(path.join(dataDir, "postgres"));
await applyMigrations(postgres.url);
const db = createDatabase(postgres.url, { max: 4 });
const { api_key: tenantKey, tenant_id: tenantId } = await createTenant(db, "bench");
const user = (await createUser(db, tenantId, "watch-wearer")).id;

console.log(`svc share benchmark: ${shareDays} days, heart rate every ${heartRateEvery} s, Node ${process.version}, ${iterations} opens per figure\n`);
const seedStarted = performance.now();
const now = new Date();
const seeded = await seedUser(db, { userId: user, days: shareDays, heartRateEvery, now });
const written = Object.values(seeded.written).reduce((sum, n) => sum + n, 0);
console.log(`seeded ${seeded.first}..${seeded.last}: ${written.toLocaleString()} records in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s`);
await db.$disconnect();

const server = spawn(process.execPath, [path.resolve(import.meta.dirname, "../apps/server/src/main.ts")], {
  env: { ...process.env, DATABASE_URL: postgres.url, SVC_DATA_DIR: dataDir, PORT: "0", SVC_HOST: "127.0.0.1", SVC_LOG_LEVEL: "info", SVC_ROLE: "api" },
  stdio: ["ignore", "pipe", "inherit"],
});
const url = await new Promise<string>((resolve, reject) => {
  server.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  createInterface({ input: server.stdout! }).on("line", (line) => {
    const started = /"url":"(http:\/\/127\.0\.0\.1:\d+)","msg":"svc started"/.exec(line);
    if (started) resolve(started[1]!);
  });
});

const ALL = ["activity", "heart", "recovery", "body", "sleep", "workouts", "vitals", "nutrition", "cycle", "mindfulness", "reported"];
// The seed covers the whole UTC days before today.
const end = Date.parse(`${now.toISOString().slice(0, 10)}T00:00:00Z`);

async function makeShare(label: string, days: number, detail: "daily" | "full") {
  const started = performance.now();
  const response = await fetch(`${url}/v1/users/${user}/shares`, {
    method: "POST",
    headers: { authorization: `Bearer ${tenantKey}`, "content-type": "application/json" },
    body: JSON.stringify({
      label,
      categories: ALL,
      start: new Date(end - days * DAY_MS).toISOString(),
      end: new Date(end).toISOString(),
      expires_at: new Date(Date.now() + DAY_MS).toISOString(),
      detail,
    }),
  });
  const body = (await response.json()) as { id: string; link: string; shlink: string; observations: number; file_bytes: number; detail?: string };
  if (response.status !== 201) throw new Error(`${label}: ${response.status} ${JSON.stringify(body)}`);
  return { ...body, createMs: performance.now() - started };
}

const sql = createDatabase(postgres.url, { max: 1 });
/** The decrypted Bundle's size; `rewriteOld` stores the file again as shares were made before issue 21. */
async function bundleOf(share: { id: string; shlink: string }, rewriteOld = false) {
  const key = Buffer.from(parseShlink(share.shlink)!.key, "base64url");
  const row = await sql.share.findFirstOrThrow({ where: { id: share.id }, select: { file: true } });
  const { plaintext } = decryptJwe(Buffer.from(row.file!).toString("ascii"), key);
  if (!rewriteOld) return { bundleBytes: plaintext.length, fileBytes: row.file!.length };
  const { _timestamp: _zone, meta: _detail, ...old } = JSON.parse(plaintext.toString("utf8")) as Record<string, unknown>;
  const json = JSON.stringify({ ...old, timestamp: new Date().toISOString() });
  const file = Buffer.from(encryptJwe(json, key, { contentType: "application/fhir+json" }), "ascii");
  await sql.share.updateMany({ where: { id: share.id }, data: { file, fileBytes: file.length } });
  return { bundleBytes: Buffer.byteLength(json), fileBytes: file.length };
}

const browser = await launchBrowser();

/** ms from navigation to the Overview shown and the first screen's charts drawn, in a fresh context. */
async function openOnce(link: string, screen: "desktop" | "phone"): Promise<{ total: number; manifest: number }> {
  const context = await browser.newContext(
    screen === "desktop" ? { viewport: { width: 1440, height: 900 } } : { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  );
  const page = await context.newPage();
  if (screen === "phone") await (await context.newCDPSession(page)).send("Emulation.setCPUThrottlingRate", { rate: 4 });
  const started = performance.now();
  await page.goto(link);
  await page.getByRole("heading", { name: "Overview", level: 2 }).waitFor({ timeout: 120_000 });
  await page.waitForFunction(
    `[...document.querySelectorAll("figure")]
      .filter((figure) => figure.getBoundingClientRect().top < innerHeight)
      .every((figure) => figure.querySelector("svg.recharts-surface path"))`,
    undefined,
    { timeout: 120_000 },
  );
  const total = performance.now() - started;
  const manifest = (await page.evaluate(
    `performance.getEntriesByType("resource").filter((entry) => entry.name.endsWith("/manifest")).map((entry) => entry.duration)[0] ?? 0`,
  )) as number;
  await context.close();
  return { total, manifest };
}

async function openTimes(link: string, screen: "desktop" | "phone") {
  await openOnce(link, screen); // warm up the server's and the browser's code paths
  const runs: Array<{ total: number; manifest: number }> = [];
  for (let i = 0; i < iterations; i++) runs.push(await openOnce(link, screen));
  runs.sort((a, b) => a.total - b.total);
  return runs[Math.floor(runs.length / 2)]!;
}

const figures: Array<Record<string, string>> = [];
async function measure(name: string, share: Awaited<ReturnType<typeof makeShare>>, rewriteOld = false) {
  const sizes = await bundleOf(share, rewriteOld);
  const desktop = await openTimes(share.link, "desktop");
  const phone = await openTimes(share.link, "phone");
  figures.push({
    share: name,
    observations: share.observations.toLocaleString(),
    "bundle JSON": `${(sizes.bundleBytes / MB).toFixed(2)} MB`,
    "encrypted file": `${(sizes.fileBytes / MB).toFixed(2)} MB`,
    "made in": `${(share.createMs / 1000).toFixed(1)} s`,
    "desktop open": `${(desktop.total / 1000).toFixed(2)} s (manifest ${(desktop.manifest / 1000).toFixed(2)} s)`,
    "phone (4x CPU) open": `${(phone.total / 1000).toFixed(2)} s`,
  });
  console.log(figures.at(-1));
}

try {
  await measure(`${shareDays} days, daily (default)`, await makeShare("daily", shareDays, "daily"));
  await measure("7 days, full, compressed", await makeShare("full", 7, "full"));
  await measure("7 days, full, as before issue 21", await makeShare("old", 7, "full"), true);
  console.log();
  console.table(figures);
} finally {
  await browser.close();
  server.kill("SIGTERM");
  await sql.$disconnect();
  await postgres.stop();
  rmSync(dataDir, { recursive: true, force: true });
}
