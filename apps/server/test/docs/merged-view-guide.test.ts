// docs/guides/merged-view.md, run as a reader runs it (guide-blocks.ts, guide-run.ts): its sh
// blocks in order against a real server, each printing what the guide shows; then what the guide
// states beside its commands is held against the code: the match windows of its table are those
// of the merge, and the ranking it shows for heart rate is the built-in order of the heart group.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { BUILTIN_SOURCE_ORDERS, MATCH_WINDOW_SECONDS } from "@svc/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { outputMatches } from "./expected-output.ts";
import { guideBlocksOf } from "./guide-blocks.ts";
import { runGuide, type GuideRun } from "./guide-run.ts";
import { tableUnder } from "./markdown-table.ts";

const GUIDE = path.resolve(import.meta.dirname, "../../../../docs/guides/merged-view.md");
const markdown = readFileSync(GUIDE, "utf8");

let svc: TestService;
let workDir: string;
let run: GuideRun;

beforeAll(async () => {
  svc = await startTestService();
  workDir = mkdtempSync(path.join(tmpdir(), "svc-guide-merged-view-"));
  const env = { PATH: process.env.PATH ?? "", HOME: workDir, LANG: "C.UTF-8", BASE_URL: svc.url, KEY: (await svc.createTenant("acme")).api_key };
  run = await runGuide(guideBlocksOf(markdown).blocks, { workDir, scriptDir: workDir, env, timeoutMs: 120_000 });
}, 180_000);

afterAll(async () => {
  await svc?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

describe("docs/guides/merged-view.md", () => {
  it("shows only code the tests run or check", () => {
    expect(guideBlocksOf(markdown).problems).toEqual([]);
  });

  it("runs every sh block in order, each printing what the guide shows", () => {
    const failed = run.failed;
    expect(failed, failed ? `the block at line ${failed.block.block.line} failed:\n${failed.stdout}\n${failed.stderr}` : "").toBeNull();
    expect(run.exitCode).toBe(0);
    expect(run.completed.filter((done) => done.block.output !== null).length).toBeGreaterThanOrEqual(8);
    for (const done of run.completed) {
      const output = done.block.output;
      if (output) expect(outputMatches(output.value, done.stdout, output.lang), `line ${done.block.block.line} printed:\n${done.stdout}\n${done.stderr}`).toBe(true);
    }
  });

  it("states the match windows of the merge", () => {
    const rows = new Map(tableUnder(markdown, "4. When records match").map((row) => [row[0]!, row[2]!]));
    expect([...rows.keys()].sort()).toEqual(["body_measurements", "counts", "daily_figures", "other", "readings", "sessions"]);
    const UNIT: Record<string, number> = { min: 60, h: 3600 };
    for (const [kind, seconds] of Object.entries(MATCH_WINDOW_SECONDS)) {
      const [, amount, unit] = /at most (\d+) (min|h) apart/.exec(rows.get(kind) ?? "") ?? [];
      expect(Number(amount) * (UNIT[unit ?? ""] ?? NaN), kind).toBe(seconds);
    }
    for (const kind of ["counts", "other"]) expect(rows.get(kind)).toBe("their intervals overlap");
    expect(rows.get("sessions")).toBe("they share at least half of the shorter one");
  });

  it("shows the ranking of heart rate as the built-in heart order", () => {
    const ranking = run.completed.find((done) => done.block.block.value.includes("source-ranking?metric=heart_rate"));
    expect(JSON.parse(ranking!.stdout)).toEqual({ metric: "heart_rate", group: "heart", sources: BUILTIN_SOURCE_ORDERS.heart });
  });
});
