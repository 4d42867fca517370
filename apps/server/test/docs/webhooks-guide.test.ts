// docs/guides/webhooks.md, run as a reader runs it (guide-blocks.ts, guide-run.ts): its sh blocks
// in order against a real server whose endpoint is a local receiver, each printing what the guide
// shows; then what the guide states is held against the code: the deliveries the receiver got
// verify with the secrets the guide stored, the retry ladder is the delivery schedule, the event
// table names every event with data its schema takes, the table of reads names every table a
// data.written counts.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEFAULT_DELIVERY_SCHEDULE, EVENT_CATALOG, EVENT_TYPES, WRITTEN_TABLES, type EventType } from "@svc/core";
import { startWebhookReceiver, type WebhookReceiver } from "@svc/testing";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { outputMatches } from "./expected-output.ts";
import { guideBlocksOf } from "./guide-blocks.ts";
import { runGuide, type GuideRun } from "./guide-run.ts";
import { codeSpan, tableUnder } from "./markdown-table.ts";

const GUIDE = path.resolve(import.meta.dirname, "../../../../docs/guides/webhooks.md");
const markdown = readFileSync(GUIDE, "utf8");

let svc: TestService;
let receiver: WebhookReceiver;
let workDir: string;
let run: GuideRun;

beforeAll(async () => {
  // SVC_WEBHOOK_ALLOW_PRIVATE: the endpoint is a receiver on loopback over http, as in local development.
  svc = await startTestService({ SVC_WEBHOOK_ALLOW_PRIVATE: "true" });
  receiver = await startWebhookReceiver();
  workDir = mkdtempSync(path.join(tmpdir(), "svc-guide-webhooks-"));
  const env = {
    PATH: process.env.PATH ?? "",
    HOME: workDir,
    LANG: "C.UTF-8",
    BASE_URL: svc.url,
    KEY: (await svc.createTenant("acme")).api_key,
    WEBHOOK_URL: receiver.url,
  };
  run = await runGuide(guideBlocksOf(markdown).blocks, { workDir, scriptDir: workDir, env, timeoutMs: 120_000 });
}, 180_000);

afterAll(async () => {
  await receiver?.close();
  await svc?.stop();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

const readJson = (name: string) => JSON.parse(readFileSync(path.join(workDir, name), "utf8"));

describe("docs/guides/webhooks.md", () => {
  it("shows only code the tests run or check", () => {
    expect(guideBlocksOf(markdown).problems).toEqual([]);
  });

  it("runs every sh block in order, each printing what the guide shows", () => {
    const failed = run.failed;
    expect(failed, failed ? `the block at line ${failed.block.block.line} failed:\n${failed.stdout}\n${failed.stderr}` : "").toBeNull();
    expect(run.exitCode).toBe(0);
    for (const done of run.completed) {
      const output = done.block.output;
      if (output) expect(outputMatches(output.value, done.stdout, output.lang), `line ${done.block.block.line} printed:\n${done.stdout}\n${done.stderr}`).toBe(true);
    }
  });

  it("delivers what it shows: the test event, data.written and its replay, each signed with the secret of its time", async () => {
    await receiver.waitFor((requests) => requests.length >= 3);
    const secrets = [readJson("endpoint.json").secret as string, readJson("rotated.json").secret as string];
    const events = receiver.requests.map((request) => {
      const headers = Object.fromEntries(["webhook-id", "webhook-timestamp", "webhook-signature"].map((name) => [name, String(request.headers[name])]));
      const verified = secrets.flatMap((secret) => {
        try {
          return [new Webhook(secret).verify(request.body.toString("utf8"), headers) as { id: string; type: string }];
        } catch {
          return [];
        }
      });
      expect(verified, request.body.toString("utf8")).toHaveLength(1);
      return verified[0]!;
    });
    expect(events.map((event) => event.type)).toEqual(["webhook.test", "data.written", "data.written"]);
    // The replay is the same event.
    expect(events[2]!.id).toBe(events[1]!.id);
    const replay = readJson("replay.json");
    expect(replay.replay_of).toBe(readJson("deliveries.json").data[0].id);
    expect(replay.event_id).toBe(events[1]!.id);
  });

  it("states the retry ladder of the delivery schedule", () => {
    const rows = tableUnder(markdown, "7. Failures: the retry ladder");
    const delays = DEFAULT_DELIVERY_SCHEDULE.retryDelaysMs;
    expect(rows.map((row) => Number(row[0]))).toEqual(Array.from({ length: delays.length + 1 }, (_, i) => i + 1));
    expect(rows.slice(1).map((row) => duration(row[1]!))).toEqual(delays);
    expect(rows.map((row) => duration(row[2]!))).toEqual(rows.map((_, i) => sum(delays.slice(0, i))));
    expect(markdown).toContain(`up to ${DEFAULT_DELIVERY_SCHEDULE.timeoutMs / 1000} s each`);
  });

  it("lists every event type with data its schema takes", () => {
    const rows = tableUnder(markdown, "6. Every event");
    expect(rows.map((row) => codeSpan(row[0]!))).toEqual(EVENT_TYPES);
    for (const row of rows) {
      const type = codeSpan(row[0]!) as EventType;
      const shown = JSON.parse(codeSpan(row[2]!)) as Record<string, unknown>;
      const data = type === "webhook.test" ? shown : { user_id: "00000000-0000-4000-8000-000000000000", external_ref: "user-1", ...shown };
      expect(EVENT_CATALOG[type].data.safeParse(data).error, type).toBeUndefined();
    }
  });

  it("says how to read every table a data.written counts", () => {
    const rows = tableUnder(markdown, "5. Thin events: read what changed");
    expect(rows.map((row) => codeSpan(row[0]!)).sort()).toEqual([...WRITTEN_TABLES].sort());
  });
});

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

const UNITS: Record<string, number> = { s: 1000, min: 60_000, h: 3_600_000 };

/** "2 h 35 min 5 s" → milliseconds; "0" → 0. */
function duration(text: string): number {
  if (text === "0") return 0;
  const parts = [...text.matchAll(/(\d+) (s|min|h)\b/g)];
  expect(parts.length, text).toBeGreaterThan(0);
  return sum(parts.map(([, value, unit]) => Number(value) * UNITS[unit!]!));
}
