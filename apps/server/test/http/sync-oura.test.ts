import { readFileSync } from "node:fs";
import { applicationIdOf } from "@svc/core";
import type { JobQueue } from "@svc/jobs";
import { PROVIDER_REGISTRY } from "@svc/providers";
import { waitUntil } from "@svc/testing";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, expect, it } from "vitest";
import { createUser } from "../helpers/records.ts";
import { eventsOf, FAST_SYNC, insertConnection, runRow, SYNCTEST_ENV } from "../helpers/sync-provider.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { startTestQueue } from "../helpers/webhooks.ts";

// The engine with a real connector of this build (Oura API v2) against msw: sync now pulls,
// stores the pages as raw objects, the ETL parses them with the connector's parser and
// data.written goes out; a 429 with Retry-After waits.

const ENV = {
  SVC_ENCRYPTION_KEY: SYNCTEST_ENV.SVC_ENCRYPTION_KEY,
  SVC_OURA_CLIENT_ID: "oura-client-id",
  SVC_OURA_CLIENT_SECRET: "oura-client-secret",
  SVC_OURA_API_URL: "https://oura.test",
  SVC_OURA_TOKEN_URL: "https://oura.test/oauth/token",
};
const DAILY_ACTIVITY = JSON.parse(readFileSync(new URL("../../../../packages/providers/test/fixtures/oura/daily_activity.json", import.meta.url), "utf8"));

let answerActivity: () => Response = () => HttpResponse.json(DAILY_ACTIVITY);
const msw = setupServer(
  http.get("https://oura.test/v2/usercollection/daily_activity", () => answerActivity()),
  http.get("https://oura.test/v2/usercollection/:collection", () => HttpResponse.json({ data: [], next_token: null })),
);

let svc: TestService;
let jobs: JobQueue;
let key: string;

beforeAll(async () => {
  msw.listen({ onUnhandledRequest: "bypass" });
  svc = await startTestService(ENV, { syncSettings: FAST_SYNC });
  jobs = await startTestQueue(svc);
  key = (await svc.createTenant()).api_key;
});
afterAll(async () => {
  await jobs?.stop();
  await svc?.stop();
  msw.close();
});

it("sync now with the Oura connector: pages stored, parsed by the ETL, data.written; a 429 waits for Retry-After", async () => {
  const oura = PROVIDER_REGISTRY.connector("oura")!;
  const userId = await createUser(svc, key);
  await insertConnection(svc, {
    userId,
    provider: "oura",
    tokens: { accessToken: "oura-access", refreshToken: "oura-refresh" },
    scopes: ["daily"],
    applicationId: applicationIdOf(oura, { CLIENT_ID: ENV.SVC_OURA_CLIENT_ID }),
  });
  let asked = 0;
  answerActivity = () => (++asked === 1 ? new HttpResponse(null, { status: 429, headers: { "Retry-After": "1" } }) : HttpResponse.json(DAILY_ACTIVITY));

  const answer = await svc.call(`/v1/users/${userId}/connections/oura/sync`, { key, body: {} });
  expect(answer.status, answer.text).toBe(202);
  const runId = BigInt(answer.body.id);
  await waitUntil(async () => (await runRow(svc, runId)).status === "rate_limited", 10_000, "the 429");
  expect((await runRow(svc, runId)).attempts).toBe(0);
  await waitUntil(async () => (await runRow(svc, runId)).status === "succeeded", 15_000, "the run");
  expect((await runRow(svc, runId)).objectsStored).toBe(1);

  const [raw] = await svc.db.rawObject.findMany({ where: { userId, provider: "oura" } });
  expect(raw).toMatchObject({ format: "oura-daily_activity", contentType: "application/json" });
  await waitUntil(async () => (await svc.db.rawObject.findFirstOrThrow({ where: { id: raw!.id } })).status !== "pending", 15_000, "the ETL");
  expect((await svc.db.rawObject.findFirstOrThrow({ where: { id: raw!.id } })).status).toBe("processed");
  const [written] = await eventsOf(svc, userId, "data.written");
  expect(written!.data).toMatchObject({ user_id: userId, provider: "oura" });
});
