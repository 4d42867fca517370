import { DATA_CATEGORIES } from "@svc/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, mintToken, writeSamples } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";

// The consent routes: GET /v1/users/{id}/consents, POST .../consents/{provider}/grant and
// .../revoke. The API role only: a revocation's job stays pending, so repeats can be checked.

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService({ SVC_ROLE: "api" });
  key = (await svc.createTenant()).api_key;
});
afterAll(() => svc?.stop());

const revoke = (user: string, provider: string, body: unknown, auth = key) =>
  svc.call(`/v1/users/${user}/consents/${provider}/revoke`, { key: auth, body });
const grant = (user: string, provider: string, body: unknown, auth = key) =>
  svc.call(`/v1/users/${user}/consents/${provider}/grant`, { key: auth, body });

const consentEvents = (user: string) =>
  svc.db.outboxEvent.findMany({ where: { userId: user, type: { startsWith: "consent." } }, orderBy: { createdAt: "asc" }, select: { type: true, data: true } });

const grantedOf = (consent: { categories: Array<{ category: string; granted: boolean }> }) =>
  Object.fromEntries(consent.categories.map((c) => [c.category, c.granted]));

const everyGranted = Object.fromEntries(DATA_CATEGORIES.map((category) => [category, true]));

/** Everything a consent call could change for the user. */
async function snapshot(user: string) {
  return {
    consents: await svc.db.sourceConsent.findMany({ where: { userId: user }, orderBy: [{ provider: "asc" }, { category: "asc" }] }),
    jobs: await svc.db.deletionJob.findMany({ where: { userId: user }, orderBy: { createdAt: "asc" } }),
    events: await consentEvents(user),
  };
}

describe("GET /v1/users/{id}/consents", () => {
  it("lists every source the user has data, a connection or saved consent of, every category granted by default", async () => {
    const user = await createUser(svc, key);
    expect((await svc.call(`/v1/users/${user}/consents`, { key })).body).toEqual({ data: [] });

    await writeSamples(svc, user, "oura", [{ type: "heart_rate", value: 60, start_date: new Date("2024-03-01T08:00:00Z") }]);
    const reported = await svc.call(`/v1/users/${user}/self-reports`, { key, body: { reports: [{ kind: "mood", value: 3, start_at: "2024-03-01T08:00:00Z" }] } });
    expect(reported.status, reported.text).toBe(202);
    expect((await revoke(user, "withings", { categories: ["body"] })).status).toBe(202);

    const listed = await svc.call(`/v1/users/${user}/consents`, { key });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body.data.map((c: { provider: string }) => c.provider)).toEqual(["oura", "self_report", "withings"]);
    expect(grantedOf(listed.body.data[0])).toEqual(everyGranted);
    expect(listed.body.data[0].categories.map((c: { category: string }) => c.category)).toEqual([...DATA_CATEGORIES]);
    expect(listed.body.data[0].categories.every((c: { updated_at: unknown }) => c.updated_at === null)).toBe(true);
    expect(grantedOf(listed.body.data[2])).toEqual({ ...everyGranted, body: false });
    expect(listed.body.data[2].categories.find((c: { category: string }) => c.category === "body").updated_at).toEqual(expect.any(String));
  });

  it("401 without a key, 403 with a user token, 404 for another tenant's user or a user being deleted", async () => {
    const user = await createUser(svc, key);
    const token = await mintToken(svc, key, user, ["upload", "read"]);
    const otherKey = (await svc.createTenant()).api_key;
    const none = await svc.call(`/v1/users/${user}/consents`, {});
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toContain("Bearer");
    expect((await svc.call(`/v1/users/${user}/consents`, { key: token })).status).toBe(403);
    expect((await svc.call(`/v1/users/${user}/consents`, { key: otherKey })).status).toBe(404);
    expect((await svc.call(`/v1/users/not-a-uuid/consents`, { key })).status).toBe(400);
    expect((await svc.call(`/v1/users/${user}`, { method: "DELETE", key })).status).toBe(202);
    expect((await svc.call(`/v1/users/${user}/consents`, { key })).status).toBe(404);
  });
});

describe("POST /v1/users/{id}/consents/{provider}/revoke", () => {
  it("saves the categories revoked, starts a deletion job and writes consent.revoked in one go", async () => {
    const user = await createUser(svc, key);
    const answer = await revoke(user, "oura", { categories: ["sleep", "heart", "sleep"] });
    expect(answer.status, answer.text).toBe(202);
    expect(answer.body.consent.provider).toBe("oura");
    expect(grantedOf(answer.body.consent)).toEqual({ ...everyGranted, heart: false, sleep: false });
    expect(answer.body.job).toMatchObject({ user_id: user, provider: "oura", status: "pending", finished_at: null });

    const job = await svc.db.deletionJob.findUniqueOrThrow({ where: { id: answer.body.job.job_id } });
    expect(job).toMatchObject({ provider: "oura", categories: ["heart", "sleep"], status: "pending" });
    expect((await svc.call(`/v1/deletions/${job.id}`, { key })).body).toMatchObject({ job_id: job.id, provider: "oura", status: "pending" });
    expect(await consentEvents(user)).toEqual([
      { type: "consent.revoked", data: { user_id: user, external_ref: null, provider: "oura", categories: ["heart", "sleep"] } },
    ]);
    const listed = await svc.call(`/v1/users/${user}/consents`, { key });
    expect(listed.body.data).toEqual([answer.body.consent]);
  });

  it("repeated while its job runs answers the same job and writes nothing; a new category gets its own job", async () => {
    const user = await createUser(svc, key);
    const first = await revoke(user, "oura", { categories: ["sleep"] });
    const again = await revoke(user, "oura", { categories: ["sleep"] });
    expect(again.status).toBe(202);
    expect(again.body.job.job_id).toBe(first.body.job.job_id);
    expect(again.body.consent).toEqual(first.body.consent);
    expect(await svc.db.deletionJob.count({ where: { userId: user } })).toBe(1);
    expect(await consentEvents(user)).toHaveLength(1);

    const wider = await revoke(user, "oura", { categories: ["sleep", "heart"] });
    expect(wider.body.job.job_id).not.toBe(first.body.job.job_id);
    const job = await svc.db.deletionJob.findUniqueOrThrow({ where: { id: wider.body.job.job_id } });
    expect(job.categories).toEqual(["heart"]);
    expect((await consentEvents(user)).map((e) => e.data)).toEqual([
      { user_id: user, external_ref: null, provider: "oura", categories: ["sleep"] },
      { user_id: user, external_ref: null, provider: "oura", categories: ["heart"] },
    ]);
  });

  it("repeated, starts a new job for each asked category whose newest job failed, even when another category's newer job did not", async () => {
    const user = await createUser(svc, key);
    const sleep = await revoke(user, "oura", { categories: ["sleep"] });
    await svc.db.deletionJob.update({ where: { id: sleep.body.job.job_id }, data: { status: "failed", finishedAt: new Date() } });
    const heart = await revoke(user, "oura", { categories: ["heart"] });
    expect(heart.status).toBe(202);
    const events = await consentEvents(user);

    const again = await revoke(user, "oura", { categories: ["heart", "sleep"] });
    expect(again.status, again.text).toBe(202);
    expect([sleep.body.job.job_id, heart.body.job.job_id]).not.toContain(again.body.job.job_id);
    expect(again.body.job.status).toBe("pending");
    const job = await svc.db.deletionJob.findUniqueOrThrow({ where: { id: again.body.job.job_id } });
    expect(job.categories).toEqual(["sleep"]);
    expect(await consentEvents(user)).toEqual(events);
    // Now every asked category's newest job is open: the same job again, nothing new.
    const once = await revoke(user, "oura", { categories: ["heart", "sleep"] });
    expect(once.body.job.job_id).toBe(again.body.job.job_id);
    expect(await svc.db.deletionJob.count({ where: { userId: user } })).toBe(3);
    expect((await revoke(user, "oura", { categories: ["heart"] })).body.job.job_id).toBe(heart.body.job.job_id);
  });

  it("revokes the user's active shares holding the source and a revoked category, with reason consent", async () => {
    const user = await createUser(svc, key);
    const tenantId = (await svc.db.user.findUniqueOrThrow({ where: { id: user } })).tenantId;
    const share = (categories: string[], providers: string[]) =>
      svc.db.share.create({
        data: {
          tenantId,
          userId: user,
          label: "coach",
          categories,
          providers,
          windowStart: new Date("2024-01-01T00:00:00Z"),
          windowEnd: new Date("2024-02-01T00:00:00Z"),
          expiresAt: new Date(Date.now() + 86_400_000),
          file: Buffer.from("sealed"),
        },
        select: { id: true },
      });
    const hit = await share(["sleep", "activity"], ["oura"]);
    const otherCategory = await share(["activity"], ["oura"]);
    const otherSource = await share(["sleep"], ["garmin"]);

    expect((await revoke(user, "oura", { categories: ["sleep"] })).status).toBe(202);
    const rows = await svc.db.share.findMany({ where: { userId: user }, select: { id: true, revokedReason: true, file: true } });
    const byId = new Map(rows.map((row) => [row.id, row]));
    expect(byId.get(hit.id)).toMatchObject({ revokedReason: "consent", file: null });
    expect(byId.get(otherCategory.id)?.revokedReason).toBeNull();
    expect(byId.get(otherSource.id)?.revokedReason).toBeNull();
    const revoked = await svc.db.outboxEvent.findMany({ where: { userId: user, type: "share.revoked" }, select: { data: true } });
    expect(revoked.map((e) => e.data)).toEqual([{ user_id: user, external_ref: null, share_id: hit.id, reason: "consent" }]);
  });

  it("400 for an unknown or missing category or extra fields, 404 for an unknown provider; nothing changes", async () => {
    const user = await createUser(svc, key);
    await revoke(user, "oura", { categories: ["sleep"] });
    const before = await snapshot(user);
    for (const body of [{ categories: ["sleep", "moods"] }, { categories: [] }, {}, { categories: "sleep" }, { categories: ["sleep"], extra: 1 }]) {
      const answer = await revoke(user, "oura", body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
      expect((await grant(user, "oura", body)).status, JSON.stringify(body)).toBe(400);
    }
    const unknown = await revoke(user, "no_such_provider", { categories: ["heart"] });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get("content-type")).toContain("application/problem+json");
    expect((await grant(user, "no_such_provider", { categories: ["sleep"] })).status).toBe(404);
    expect(await snapshot(user)).toEqual(before);
  });

  it("401, 403 and 404 like every tenant route; nothing changes", async () => {
    const user = await createUser(svc, key);
    const token = await mintToken(svc, key, user, ["upload"]);
    const otherKey = (await svc.createTenant()).api_key;
    const body = { categories: ["heart"] };
    expect((await svc.call(`/v1/users/${user}/consents/oura/revoke`, { body })).status).toBe(401);
    expect((await revoke(user, "oura", body, "svc_wrong")).status).toBe(401);
    expect((await revoke(user, "oura", body, token)).status).toBe(403);
    expect((await grant(user, "oura", body, token)).status).toBe(403);
    expect((await revoke(user, "oura", body, otherKey)).status).toBe(404);
    expect((await grant(user, "oura", body, otherKey)).status).toBe(404);
    expect(await snapshot(user)).toEqual({ consents: [], jobs: [], events: [] });
    expect((await svc.call(`/v1/users/${user}`, { method: "DELETE", key })).status).toBe(202);
    expect((await revoke(user, "oura", body)).status).toBe(404);
    expect((await grant(user, "oura", body)).status).toBe(404);
    expect((await snapshot(user)).consents).toEqual([]);
    expect(await svc.db.deletionJob.count({ where: { userId: user, provider: { not: null } } })).toBe(0);
  });
});

describe("POST /v1/users/{id}/consents/{provider}/grant", () => {
  it("granting what is granted changes and sends nothing", async () => {
    const user = await createUser(svc, key);
    const answer = await grant(user, "oura", { categories: ["sleep"] });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ provider: "oura", categories: DATA_CATEGORIES.map((category) => ({ category, granted: true, updated_at: null })) });
    expect(await snapshot(user)).toEqual({ consents: [], jobs: [], events: [] });
  });

  it("409 while the revoked category's records are being deleted; nothing changes", async () => {
    const user = await createUser(svc, key);
    await revoke(user, "oura", { categories: ["sleep"] });
    const before = await snapshot(user);
    const refused = await grant(user, "oura", { categories: ["sleep", "heart"] });
    expect(refused.status).toBe(409);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect(await snapshot(user)).toEqual(before);
  });

  it("grants a revoked category again once its job is done and writes consent.granted naming only what changed", async () => {
    const user = await createUser(svc, key);
    const revoked = await revoke(user, "oura", { categories: ["sleep", "heart"] });
    // The API role runs no worker: finish the job as the worker would.
    await svc.db.deletionJob.update({ where: { id: revoked.body.job.job_id }, data: { status: "done", finishedAt: new Date() } });
    const answer = await grant(user, "oura", { categories: ["sleep", "activity"] });
    expect(answer.status, answer.text).toBe(200);
    expect(grantedOf(answer.body)).toEqual({ ...everyGranted, heart: false });
    const events = await consentEvents(user);
    expect(events.at(-1)).toEqual({ type: "consent.granted", data: { user_id: user, external_ref: null, provider: "oura", categories: ["sleep"] } });
    expect((await grant(user, "oura", { categories: ["sleep"] })).status).toBe(200);
    expect(await consentEvents(user)).toHaveLength(events.length);

    // A revoke of an already revoked category, its job done: the same (done) job, nothing new.
    const again = await revoke(user, "oura", { categories: ["heart"] });
    expect(again.body.job).toMatchObject({ job_id: revoked.body.job.job_id, status: "done" });
    expect(await svc.db.deletionJob.count({ where: { userId: user } })).toBe(1);
  });
});
