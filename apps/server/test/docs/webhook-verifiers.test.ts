// The signature checks of docs/guides/webhooks.md (examples/verify-webhook.ts, verify_webhook.py,
// verify_webhook.go) run as a reader would run them: against the Standard Webhooks test vectors
// and against real deliveries of a running service to a local receiver. The Python check runs
// when python3 is on the PATH, the Go check when go is; each is skipped with a reason otherwise.
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { fixturePath, startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, mintToken } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { processed, uploadNdjson } from "../helpers/uploads.ts";

const run = promisify(execFile);
const examples = path.resolve(import.meta.dirname, "../../../../docs/guides/examples");
const work = mkdtempSync(path.join(tmpdir(), "webhook-verifiers-"));

interface Check {
  secret: string;
  headers: { id?: string; timestamp?: string; signature?: string };
  body: Buffer | string;
  /** Unix seconds the verifier takes as now (WEBHOOK_NOW); its own clock when absent. */
  now?: number;
}

interface Verifier {
  name: string;
  /** Why it cannot run on this machine; null when it can. */
  missing: string | null;
  prepare?: () => Promise<void>;
  command: () => [string, string[]];
}

const onPath = (command: string, args: string[]) => spawnSync(command, args, { stdio: "ignore" }).status === 0;
const goBinary = path.join(work, "verify_webhook");

const verifiers: Verifier[] = [
  // The workspace's Node (24) runs TypeScript files as they are.
  { name: "TypeScript", missing: null, command: () => [process.execPath, [path.join(examples, "verify-webhook.ts")]] },
  {
    name: "Python",
    missing: onPath("python3", ["--version"]) ? null : "python3 is not on the PATH",
    command: () => ["python3", [path.join(examples, "verify_webhook.py")]],
  },
  {
    name: "Go",
    missing: onPath("go", ["version"]) ? null : "go is not on the PATH",
    prepare: async () => {
      await run("go", ["build", "-o", goBinary, path.join(examples, "verify_webhook.go")], { cwd: work });
    },
    command: () => [goBinary, []],
  },
];

let bodies = 0;

/** Runs a verifier on one request as its command line takes it: the body in a file, the rest in the environment. */
async function verify(verifier: Verifier, check: Check): Promise<{ ok: boolean; out: string }> {
  const bodyFile = path.join(work, `body-${++bodies}.json`);
  writeFileSync(bodyFile, check.body);
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? work, WEBHOOK_SECRET: check.secret };
  if (check.headers.id !== undefined) env.WEBHOOK_ID = check.headers.id;
  if (check.headers.timestamp !== undefined) env.WEBHOOK_TIMESTAMP = check.headers.timestamp;
  if (check.headers.signature !== undefined) env.WEBHOOK_SIGNATURE = check.headers.signature;
  if (check.now !== undefined) env.WEBHOOK_NOW = String(check.now);
  const [command, args] = verifier.command();
  try {
    const { stdout } = await run(command, [...args, bodyFile], { env });
    return { ok: true, out: stdout.trim() };
  } catch (error) {
    const failed = error as { code?: unknown; stdout?: string; stderr?: string };
    if (failed.code !== 1) throw error;
    return { ok: false, out: `${failed.stdout ?? ""}${failed.stderr ?? ""}`.trim() };
  }
}

// The vectors of the Standard Webhooks repository (MIT / Apache-2.0; /work/shared/fixtures/SOURCES.md).
type SignVector = { secret: string; msg_id: string; timestamp: number; payload: string; expected_signature: string };
type NegativeCase = { name: string; signature_header?: string; expect: string };
const vectors = JSON.parse(readFileSync(fixturePath("standard_webhooks_vectors.json"), "utf8")) as { sign_vectors: SignVector[]; negative_cases: NegativeCase[] };

const vectorCheck = (vector: SignVector, change: Partial<Check> = {}): Check => ({
  secret: vector.secret,
  headers: { id: vector.msg_id, timestamp: String(vector.timestamp), signature: vector.expected_signature },
  body: vector.payload,
  now: vector.timestamp,
  ...change,
});

// Real deliveries of the service, recorded by a local receiver.
let svc: TestService;
let receiver: WebhookReceiver;
let recorded: Array<{ what: string; secret: string; request: ReceivedWebhook }> = [];
let oldSecret: string;

const checkOf = (secret: string, request: ReceivedWebhook, body: Buffer = request.body): Check => ({
  secret,
  headers: {
    id: String(request.headers["webhook-id"]),
    timestamp: String(request.headers["webhook-timestamp"]),
    signature: String(request.headers["webhook-signature"]),
  },
  body,
});

beforeAll(async () => {
  await Promise.all(verifiers.filter((v) => v.missing === null && v.prepare).map((v) => v.prepare!()));
  // SVC_WEBHOOK_ALLOW_PRIVATE lets an endpoint be http on loopback, for local development.
  svc = await startTestService({ SVC_WEBHOOK_ALLOW_PRIVATE: "true" });
  receiver = await startWebhookReceiver();
  const key = (await svc.createTenant()).api_key;

  const created = await svc.call("/v1/webhooks", { key, body: { url: receiver.url, description: "guide verifiers" } });
  expect(created.status, created.text).toBe(201);
  const endpoint = created.body as { id: string; secret: string };
  oldSecret = endpoint.secret;

  // The test route: webhook.test.
  expect((await svc.call(`/v1/webhooks/${endpoint.id}/test`, { key, method: "POST" })).status).toBe(202);
  await receiver.waitFor((requests) => requests.length === 1);
  // A real change: an upload writes records and sends data.written.
  const user = await createUser(svc, key);
  const token = await mintToken(svc, key, user, ["upload"]);
  const upload = await uploadNdjson(svc, token, "apple-health", [
    { kind: "quantity", type: "HKQuantityTypeIdentifierHeartRate", start: "2026-03-01T10:00:00Z", value: 61, unit: "count/min", uuid: "6E1A0C39-0001-4C5B-9A55-1D0B4A1C0001" },
  ]);
  await processed(svc, upload);
  await receiver.waitFor((requests) => requests.length === 2);
  recorded = [
    { what: "webhook.test", secret: endpoint.secret, request: receiver.requests[0]! },
    { what: "data.written", secret: endpoint.secret, request: receiver.requests[1]! },
  ];

  // After rotate-secret, a replay of the same event is signed with the new secret.
  const rotated = await svc.call(`/v1/webhooks/${endpoint.id}/rotate-secret`, { key, method: "POST" });
  expect(rotated.status, rotated.text).toBe(200);
  const deliveries = await svc.call(`/v1/webhooks/${endpoint.id}/deliveries`, { key });
  const written = (deliveries.body.data as Array<{ id: number; event_type: string; status: string }>).find((d) => d.event_type === "data.written");
  expect(written?.status).toBe("done");
  // The delivery log holds the event as the receiver got it.
  const logged = await svc.call(`/v1/webhooks/${endpoint.id}/deliveries/${written!.id}`, { key });
  expect(logged.body.payload).toEqual(JSON.parse(receiver.requests[1]!.body.toString("utf8")));
  const replay = await svc.call(`/v1/webhooks/${endpoint.id}/deliveries/${written!.id}/replay`, { key, method: "POST" });
  expect(replay.status, replay.text).toBe(202);
  await receiver.waitFor((requests) => requests.length === 3);
  recorded.push({ what: "data.written", secret: rotated.body.secret as string, request: receiver.requests[2]! });
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await svc?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe.each(verifiers)("the $name verifier of the webhooks guide", (verifier) => {
  if (verifier.missing !== null) {
    it.skip(`is skipped: ${verifier.missing}`, () => undefined);
    return;
  }

  it("accepts the Standard Webhooks sign vectors, with and without the whsec_ prefix", async () => {
    expect(vectors.sign_vectors.length).toBeGreaterThan(0);
    for (const vector of vectors.sign_vectors) {
      expect(await verify(verifier, vectorCheck(vector))).toEqual({ ok: true, out: "verified" });
      expect(await verify(verifier, vectorCheck(vector, { secret: vector.secret.replace(/^whsec_/, "") }))).toEqual({ ok: true, out: "verified" });
    }
  });

  it("decides the vectors' negative cases with a signature header as they expect", async () => {
    const vector = vectors.sign_vectors[0]!;
    const cases = vectors.negative_cases.filter((c) => c.signature_header !== undefined);
    expect(cases.length).toBeGreaterThanOrEqual(3);
    for (const negative of cases) {
      const signature = negative.signature_header!.replace("<valid v1 sig>", vector.expected_signature);
      const result = await verify(verifier, vectorCheck(vector, { headers: { id: vector.msg_id, timestamp: String(vector.timestamp), signature } }));
      expect(result.ok, negative.name).toBe(negative.expect === "valid");
    }
  });

  it("refuses a missing header, a timestamp that is no number or more than 5 minutes off, a changed body and an empty secret", async () => {
    const vector = vectors.sign_vectors[0]!;
    const headers = { id: vector.msg_id, timestamp: String(vector.timestamp), signature: vector.expected_signature };
    const refused = [
      vectorCheck(vector, { headers: { ...headers, id: undefined } }),
      vectorCheck(vector, { headers: { ...headers, timestamp: undefined } }),
      vectorCheck(vector, { headers: { ...headers, signature: undefined } }),
      vectorCheck(vector, { headers: { ...headers, timestamp: "hello" } }),
      vectorCheck(vector, { now: vector.timestamp + 301 }),
      vectorCheck(vector, { now: vector.timestamp - 301 }),
      vectorCheck(vector, { body: `${vector.payload} ` }),
      vectorCheck(vector, { secret: "" }),
      vectorCheck(vector, { secret: "whsec_" }),
    ];
    for (const check of refused) expect((await verify(verifier, check)).ok, JSON.stringify(check)).toBe(false);
    expect((await verify(verifier, vectorCheck(vector, { now: vector.timestamp + 299 }))).ok).toBe(true);
    expect((await verify(verifier, vectorCheck(vector, { now: vector.timestamp - 299 }))).ok).toBe(true);
  });

  it("accepts real deliveries of svc (the test route, an upload's data.written, a replay after rotate-secret) on its own clock", async () => {
    expect(recorded.map((r) => r.what)).toEqual(["webhook.test", "data.written", "data.written"]);
    for (const { what, secret, request } of recorded) {
      expect(await verify(verifier, checkOf(secret, request))).toEqual({ ok: true, out: `verified ${what}` });
    }
  });

  it("refuses a real delivery whose body changed, or checked with another secret", async () => {
    const [, written, replayed] = recorded;
    const changed = Buffer.from(written!.request.body.toString("utf8").replace('"provider":"apple_health"', '"provider":"garmin"'));
    expect(changed.equals(written!.request.body)).toBe(false);
    expect((await verify(verifier, checkOf(written!.secret, written!.request, changed))).ok).toBe(false);
    // The replay went out after rotate-secret: the old secret no longer verifies it.
    expect((await verify(verifier, checkOf(oldSecret, replayed!.request))).ok).toBe(false);
  });
});
