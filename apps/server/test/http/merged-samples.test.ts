import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QuantitySampleRecord } from "@svc/core";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { at, createUser, writeSamples } from "../helpers/records.ts";

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService();
  key = (await svc.createTenant()).api_key;
});
afterAll(() => svc?.stop());

type Stream = { provider: string; source?: string | null; on_body?: boolean; device?: string };

/** Writes one sample of `type` per entry, each from its own stream. */
async function write(user: string, type: string, entries: Array<Stream & { start: string; end?: string; value?: number }>) {
  for (const e of entries) {
    const record: QuantitySampleRecord = {
      type,
      value: e.value ?? 1,
      start_date: at(e.start),
      end_date: e.end ? at(e.end) : undefined,
      source: e.source,
      on_body: e.on_body,
      device: e.device,
    };
    await writeSamples(svc, user, e.provider, [record]);
  }
}

async function merged(user: string, type: string) {
  const answer = await svc.call(`/v1/users/${user}/samples?type=${type}`, { key });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data as Array<{ provider: string; source: string | null; start_date: string; outranked: Array<{ provider: string; source: string }> }>;
}

const streamsOf = (samples: Awaited<ReturnType<typeof merged>>) => samples.map((s) => `${s.provider}/${s.source ?? "-"}@${s.start_date.slice(11, 16)}`);

async function setOrder(user: string, scope: string, sources: string[]) {
  const answer = await svc.call(`/v1/users/${user}/source-orders/${encodeURIComponent(scope)}`, { key, method: "PUT", body: { sources } });
  expect(answer.status, answer.text).toBe(200);
}

describe("merged view: matching by kind", () => {
  it("counts match when intervals overlap; a phone and a watch of one vendor keep the watch", async () => {
    const user = await createUser(svc, key);
    await write(user, "step_count", [
      { provider: "apple_health", source: "apple", on_body: false, device: "iPhone", start: "2026-03-01T10:00:00Z", end: "2026-03-01T10:10:00Z" },
      { provider: "apple_health", source: "apple", on_body: true, device: "Apple Watch", start: "2026-03-01T10:05:00Z", end: "2026-03-01T10:15:00Z" },
      // Touching intervals do not overlap.
      { provider: "apple_health", source: "apple", on_body: false, device: "iPhone", start: "2026-03-01T10:15:00Z", end: "2026-03-01T10:20:00Z" },
    ]);
    const samples = await merged(user, "step_count");
    expect(streamsOf(samples)).toEqual(["apple_health/apple@10:05", "apple_health/apple@10:15"]);
    expect(samples[0]!.outranked).toEqual([{ provider: "apple_health", source: "apple" }]);
    expect(samples[1]!.outranked).toEqual([]);
    const all = await svc.call(`/v1/users/${user}/samples?type=step_count&view=all`, { key });
    expect(all.body.data).toHaveLength(3);
    expect(all.body.data[0].outranked).toBeUndefined();
  });

  it("a day total of a better source overlaps (and outranks) every sample of that day", async () => {
    const user = await createUser(svc, key);
    await write(user, "step_count", [
      { provider: "garmin", source: "garmin", start: "2026-03-01T00:00:00Z", end: "2026-03-02T00:00:00Z", value: 9000 },
      { provider: "apple_health", source: "apple", start: "2026-03-01T08:00:00Z", end: "2026-03-01T08:10:00Z" },
      { provider: "apple_health", source: "apple", start: "2026-03-01T23:50:00Z", end: "2026-03-02T00:00:00Z" },
      { provider: "apple_health", source: "apple", start: "2026-03-02T00:00:00Z", end: "2026-03-02T00:10:00Z" },
    ]);
    expect(streamsOf(await merged(user, "step_count"))).toEqual(["garmin/garmin@00:00", "apple_health/apple@00:00"]);
  });

  it("readings match within 5 minutes", async () => {
    const user = await createUser(svc, key);
    await write(user, "heart_rate", [
      { provider: "garmin", source: "garmin", start: "2026-03-01T10:00:00Z" },
      { provider: "apple_health", source: "apple", start: "2026-03-01T10:05:00Z" },
      { provider: "apple_health", source: "apple", start: "2026-03-01T10:05:01Z" },
      { provider: "apple_health", source: "apple", start: "2026-03-01T09:55:00Z" },
    ]);
    expect(streamsOf(await merged(user, "heart_rate"))).toEqual(["garmin/garmin@10:00", "apple_health/apple@10:05"]);
  });

  it("nightly or daily figures match within 12 hours", async () => {
    const user = await createUser(svc, key);
    await setOrder(user, "resting_heart_rate", ["oura", "whoop"]);
    await write(user, "resting_heart_rate", [
      { provider: "oura", source: "oura", start: "2026-03-01T06:00:00Z" },
      { provider: "whoop", source: "whoop", start: "2026-03-01T18:00:00Z" },
      { provider: "whoop", source: "whoop", start: "2026-03-02T06:00:01Z" },
    ]);
    expect(streamsOf(await merged(user, "resting_heart_rate"))).toEqual(["oura/oura@06:00", "whoop/whoop@06:00"]);
  });

  it("body measurements match within an hour", async () => {
    const user = await createUser(svc, key);
    await write(user, "body_mass", [
      { provider: "withings", source: "withings", start: "2026-03-01T07:00:00Z", value: 70 },
      { provider: "garmin", source: "garmin", start: "2026-03-01T08:00:00Z", value: 70 },
      { provider: "garmin", source: "garmin", start: "2026-03-01T08:00:01Z", value: 70 },
    ]);
    expect(streamsOf(await merged(user, "body_mass"))).toEqual(["withings/withings@07:00", "garmin/garmin@08:00"]);
  });

  it("anything else matches when intervals overlap", async () => {
    const user = await createUser(svc, key);
    await setOrder(user, "*", ["b_vendor", "a_vendor"]);
    const custom = (provider: string, start: string, end: string) => ({ provider, source: provider, start, end });
    for (const [provider, start, end] of [
      ["a_vendor", "2026-03-01T10:00:00Z", "2026-03-01T11:00:00Z"],
      ["b_vendor", "2026-03-01T10:30:00Z", "2026-03-01T10:40:00Z"],
      ["a_vendor", "2026-03-01T12:00:00Z", "2026-03-01T13:00:00Z"],
    ] as const) {
      const c = custom(provider, start, end);
      await writeSamples(svc, user, c.provider, [{ type: "vendor_load", value: 1, unit: "{score}", start_date: at(c.start), end_date: at(c.end), source: c.source }]);
    }
    expect(streamsOf(await merged(user, "vendor_load"))).toEqual(["b_vendor/b_vendor@10:30", "a_vendor/a_vendor@12:00"]);
  });
});

describe("merged view: ranking", () => {
  const sameTime = (...streams: Stream[]) => streams.map((s) => ({ ...s, start: "2026-03-01T10:00:00Z" }));

  it("uses the built-in order of the group when the user has none", async () => {
    const user = await createUser(svc, key);
    // heart: polar before garmin before apple.
    await write(user, "heart_rate", sameTime({ provider: "apple_health", source: "apple" }, { provider: "garmin", source: "garmin" }, { provider: "polar", source: "polar" }));
    const [kept] = await merged(user, "heart_rate");
    expect(kept).toMatchObject({ provider: "polar" });
    expect(kept!.outranked).toEqual([
      { provider: "apple_health", source: "apple" },
      { provider: "garmin", source: "garmin" },
    ]);
  });

  it("resolves the metric's order, then the group's, then `*`, then the built-in order", async () => {
    const user = await createUser(svc, key);
    await write(user, "heart_rate", sameTime({ provider: "apple_health", source: "apple" }, { provider: "garmin", source: "garmin" }, { provider: "oura", source: "oura" }));
    await setOrder(user, "*", ["oura"]);
    expect((await merged(user, "heart_rate"))[0]).toMatchObject({ provider: "oura" });
    await setOrder(user, "heart", ["apple"]);
    expect((await merged(user, "heart_rate"))[0]).toMatchObject({ provider: "apple_health" });
    await setOrder(user, "heart_rate", ["garmin"]);
    expect((await merged(user, "heart_rate"))[0]).toMatchObject({ provider: "garmin" });
    // Removing the metric's order brings the group's back.
    expect((await svc.call(`/v1/users/${user}/source-orders/heart_rate`, { key, method: "DELETE" })).status).toBe(204);
    expect((await merged(user, "heart_rate"))[0]).toMatchObject({ provider: "apple_health" });
    const ranking = await svc.call(`/v1/users/${user}/source-ranking?metric=heart_rate`, { key });
    expect(ranking.body.sources.slice(0, 3)).toEqual(["apple", "oura", "polar"]);
  });

  it("ranks a source missing from the user's order after every listed one", async () => {
    const user = await createUser(svc, key);
    await setOrder(user, "heart_rate", ["apple"]);
    // polar is first in the built-in heart order, but the user's order lists only apple.
    await write(user, "heart_rate", sameTime({ provider: "polar", source: "polar" }, { provider: "apple_health", source: "apple" }));
    expect(streamsOf(await merged(user, "heart_rate"))).toEqual(["apple_health/apple@10:00"]);
  });

  it("within one source ranks the stream worn on the body first, then by provider name", async () => {
    const user = await createUser(svc, key);
    await write(user, "heart_rate", sameTime({ provider: "health_connect", source: "garmin", on_body: false }, { provider: "garmin", source: "garmin", on_body: false }));
    expect(streamsOf(await merged(user, "heart_rate"))).toEqual(["garmin/garmin@10:00"]);
    await write(user, "heart_rate", sameTime({ provider: "health_connect", source: "garmin", on_body: true }));
    expect(streamsOf(await merged(user, "heart_rate"))).toEqual(["health_connect/garmin@10:00"]);
  });

  it("ranks records of unknown vendor by their provider", async () => {
    const user = await createUser(svc, key);
    await setOrder(user, "heart_rate", ["bluetooth", "garmin"]);
    await write(user, "heart_rate", sameTime({ provider: "garmin", source: "garmin" }, { provider: "bluetooth", source: null }));
    const [kept] = await merged(user, "heart_rate");
    expect(kept).toMatchObject({ provider: "bluetooth", source: null, outranked: [{ provider: "garmin", source: "garmin" }] });
  });
});

describe("source orders", () => {
  it("sets, lists and removes orders; refuses unknown scopes and repeated sources", async () => {
    const user = await createUser(svc, key);
    const put = await svc.call(`/v1/users/${user}/source-orders/sleep`, { key, method: "PUT", body: { sources: ["oura", "whoop"] } });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({ scope: "sleep", sources: ["oura", "whoop"] });
    await setOrder(user, "*", ["garmin"]);
    const list = await svc.call(`/v1/users/${user}/source-orders`, { key });
    expect(list.body.data.map((o: { scope: string }) => o.scope)).toEqual(["*", "sleep"]);

    const bad = await svc.call(`/v1/users/${user}/source-orders/not_a_metric`, { key, method: "PUT", body: { sources: ["oura"] } });
    expect(bad.status).toBe(400);
    const repeated = await svc.call(`/v1/users/${user}/source-orders/sleep`, { key, method: "PUT", body: { sources: ["oura", "oura"] } });
    expect(repeated.status).toBe(400);
    const empty = await svc.call(`/v1/users/${user}/source-orders/sleep`, { key, method: "PUT", body: { sources: [] } });
    expect(empty.status).toBe(400);
    expect((await svc.call(`/v1/users/${user}/source-orders/heart`, { key, method: "DELETE" })).status).toBe(404);

    const otherKey = (await svc.createTenant()).api_key;
    expect((await svc.call(`/v1/users/${user}/source-orders`, { key: otherKey })).status).toBe(404);
  });
});
