import { createHash } from "node:crypto";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { outputMatches } from "./expected-output.ts";
import { guideBlocksOf } from "./guide-blocks.ts";
import { runGuide, type BlockRun, type GuideRun } from "./guide-run.ts";

// Every command in the guides is run: each guide's sh blocks run in order in one bash against
// a real server, as a reader would run them; what a guide shows a block printing is checked,
// and each NDJSON example it shows is uploaded byte for byte and processed without a rejected
// record. The rules for the blocks are in guide-blocks.ts.

const GUIDES_DIR = path.resolve(import.meta.dirname, "../../../../docs/guides");
const CLI_MAIN = path.resolve(import.meta.dirname, "../../../cli/src/main.ts");

/**
 * The guides run here and what their reader has before the first block: the server's address
 * in BASE_URL always, and a tenant key in KEY for the guides that start from getting-started.
 */
const GUIDES = [
  { file: "getting-started.md", tenantKey: false },
  { file: "connecting-users.md", tenantKey: true },
  { file: "uploads-from-apps.md", tenantKey: true },
];

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService();
});
afterAll(() => svc?.stop());

for (const { file, tenantKey } of GUIDES) describe(`docs/guides/${file}`, () => {
  const { blocks, problems } = guideBlocksOf(readFileSync(path.join(GUIDES_DIR, file), "utf8"));

  it("shows only code the tests run or check, and says why a block does not run", () => {
    expect(problems).toEqual([]);
    expect(blocks.some((block) => block.kind === "run")).toBe(true);
  });

  it("runs every sh block in order, each printing what the guide shows", async () => {
    const workDir = mkdtempSync(path.join(tmpdir(), "svc-guide-"));
    const scriptDir = mkdtempSync(path.join(tmpdir(), "svc-guide-bin-"));
    try {
      writeNpmShim(scriptDir);
      const env: Record<string, string> = {
        PATH: `${scriptDir}${path.delimiter}${process.env.PATH ?? ""}`,
        // curl and the CLI read nothing of the machine's own settings.
        HOME: workDir,
        LANG: "C.UTF-8",
        BASE_URL: svc.url,
        // `npm run svc -- ...` works on the test's database, not on ./.data.
        DATABASE_URL: svc.databaseUrl,
      };
      if (tenantKey) env.KEY = (await svc.createTenant("acme")).api_key;

      const run = await runGuide(blocks, { workDir, scriptDir, env, timeoutMs: 150_000 });
      expect(run.failed, failure(file, run)).toBeNull();
      expect(run.exitCode, failure(file, run)).toBe(0);
      for (const done of run.completed) {
        const output = done.block.output;
        if (output) expect(outputMatches(output.value, done.stdout, output.lang), mismatch(file, done)).toBe(true);
      }

      for (const example of blocks) {
        if (example.kind !== "file" || example.block.lang !== "ndjson") continue;
        const sha256 = createHash("sha256").update(example.content).digest("hex");
        const uploads = await settledUploads(sha256);
        expect(uploads.length, `${file}:${example.block.line}: ${example.name} was uploaded as shown`).toBeGreaterThan(0);
        for (const upload of uploads) {
          expect(upload.status, `${file}:${example.block.line}: ${example.name} processed`).toBe("processed");
          const rejected = await svc.db.rejectedRecord.count({ where: { userId: upload.userId, rawObjectId: upload.id } });
          expect(rejected, `${file}:${example.block.line}: rejected records of ${example.name}`).toBe(0);
        }
      }
    } finally {
      rmSync(workDir, { recursive: true, force: true });
      rmSync(scriptDir, { recursive: true, force: true });
    }
  }, 180_000);
});

/** The uploads of exactly these bytes, once none is receiving or pending any more (at most 30 s). */
async function settledUploads(sha256: string) {
  for (let i = 0; ; i++) {
    const uploads = await svc.db.rawObject.findMany({ where: { sha256 }, select: { id: true, userId: true, status: true } });
    if (i === 300 || uploads.every((upload) => upload.status === "processed" || upload.status === "failed")) return uploads;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * `npm run [-s] svc -- <args>` as the guides write it: the svc CLI from source on the test's
 * Node, without the install and build step of tooling/scripts/run.mjs. Any other npm command
 * fails: a guide block that needs one is marked no-run.
 */
function writeNpmShim(dir: string): void {
  const file = path.join(dir, "npm");
  writeFileSync(
    file,
    [
      "#!/bin/sh",
      '[ "$1" = run ] && shift || { echo "the guide tests run only npm run svc" >&2; exit 2; }',
      '[ "$1" = -s ] && shift',
      '[ "$1" = svc ] && shift || { echo "the guide tests run only npm run svc" >&2; exit 2; }',
      '[ "$1" = -- ] && shift',
      `exec "${process.execPath}" "${CLI_MAIN}" "$@"`,
      "",
    ].join("\n"),
  );
  chmodSync(file, 0o755);
}

function failure(file: string, run: GuideRun): string {
  const block = run.failed;
  const where = block ? `the block at ${file}:${block.block.block.line}` : `${file} after its last block`;
  const why = run.timedOut ? "was still running at the timeout" : `exited with ${run.exitCode}`;
  return [`${where} ${why}`, ...(block ? [`stdout:\n${block.stdout}`, `stderr:\n${block.stderr}`] : [])].join("\n");
}

function mismatch(file: string, done: BlockRun): string {
  return [
    `the output of the block at ${file}:${done.block.block.line} is not what the guide shows at line ${done.block.output?.line}`,
    `shown:\n${done.block.output?.value}`,
    `printed:\n${done.stdout}`,
    `stderr:\n${done.stderr}`,
  ].join("\n");
}
