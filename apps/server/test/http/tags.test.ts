import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestService } from "../helpers/test-service.ts";
import { createUser, mintToken, readAllPages, startWithTwoTenants } from "../helpers/records.ts";

let svc: TestService;
let key: string;
let otherKey: string;

beforeAll(async () => {
  ({ svc, key, otherKey } = await startWithTwoTenants());
});
afterAll(() => svc?.stop());

type Tag = { tag_id: string; kind: string; label: string; note: string | null; start_at: string; end_at: string | null; timezone: string | null; created_at: string; updated_at: string };

const tagsOf = (user: string) => `/v1/users/${user}/tags`;
const tagPath = (user: string, tag: string) => `/v1/users/${user}/tags/${tag}`;

async function createTag(user: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Tag> {
  const answer = await svc.call(tagsOf(user), { key, body, headers });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

const eventsOf = (user: string) => svc.db.outboxEvent.findMany({ where: { userId: user }, select: { type: true, data: true } });

/** The types of the user's events, sorted (two events can share a created_at millisecond). */
const eventTypesOf = async (user: string) => (await eventsOf(user)).map((event) => event.type).sort();

const patch = (user: string, tag: string, body: unknown, tenantKey = key) =>
  svc.call(tagPath(user, tag), { key: tenantKey, method: "PATCH", body });

async function listIds(user: string, query: string): Promise<string[]> {
  const answer = await svc.call(`${tagsOf(user)}?${query}`, { key });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data.map((tag: Tag) => tag.tag_id);
}

describe("POST /v1/users/{id}/tags", () => {
  it("creates a tag (201) and writes tag.created with user_id, external_ref and tag_id only", async () => {
    const userAnswer = await svc.call("/v1/users", { key, body: { external_ref: "runner-7" } });
    const user = userAnswer.body.id as string;
    const tag = await createTag(user, {
      kind: "illness",
      label: "Head cold",
      note: "Skipped the long run",
      start_at: "2026-03-01T08:00:00+01:00",
      end_at: "2026-03-04T07:00:00Z",
      timezone: "Europe/Berlin",
    });
    expect(tag).toEqual({
      tag_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      kind: "illness",
      label: "Head cold",
      note: "Skipped the long run",
      start_at: "2026-03-01T07:00:00.000Z",
      end_at: "2026-03-04T07:00:00.000Z",
      timezone: "Europe/Berlin",
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await svc.call(tagPath(user, tag.tag_id), { key })).body).toEqual(tag);
    expect(await eventsOf(user)).toEqual([{ type: "tag.created", data: { user_id: user, external_ref: "runner-7", tag_id: tag.tag_id } }]);
  });

  it("creates an ongoing tag when end_at is left out, with note and timezone null; any offset, seconds optional", async () => {
    const user = await createUser(svc, key);
    const tag = await createTag(user, { kind: "injury", label: "Sore knee", start_at: "2026-03-01T01:00+01:00" });
    expect(tag).toMatchObject({ start_at: "2026-03-01T00:00:00.000Z", end_at: null, note: null, timezone: null });
  });

  it("replays the first answer for the same Idempotency-Key and body, creating one tag and one event; 422 for another body", async () => {
    const user = await createUser(svc, key);
    const body = { kind: "travel", label: "Flight to Tokyo", start_at: "2026-04-01T10:00:00Z" };
    const headers = { "Idempotency-Key": "tag-key-1" };
    const first = await svc.call(tagsOf(user), { key, body, headers });
    expect(first.status).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    const second = await svc.call(tagsOf(user), { key, body, headers });
    expect(second.status).toBe(201);
    expect(second.headers.get("idempotent-replayed")).toBe("true");
    expect(second.body).toEqual(first.body);

    const other = await svc.call(tagsOf(user), { key, body: { ...body, label: "Flight to Osaka" }, headers });
    expect(other.status).toBe(422);
    expect(await svc.db.timeTag.count({ where: { userId: user } })).toBe(1);
    expect(await eventTypesOf(user)).toEqual(["tag.created"]);
  });

  it.each([
    ["an unknown kind", { kind: "secret-kind-zq" }, "kind", "secret-kind-zq"],
    ["an empty label", { label: "" }, "label", null],
    ["a blank label", { label: "   " }, "label", null],
    ["a label over 200 characters", { label: `Private words ${"x".repeat(200)}` }, "label", "Private words"],
    ["a note over 2000 characters", { note: `My diagnosis ${"y".repeat(2000)}` }, "note", "My diagnosis"],
    ["a start_at that is not a time", { start_at: "yesterday-ish" }, "start_at", "yesterday-ish"],
    ["a start_at not in the calendar", { start_at: "2026-02-30T00:00:00Z" }, "start_at", null],
    ["an end_at before start_at", { end_at: "2026-02-28T00:00:00Z" }, "end_at", null],
    ["an unknown timezone", { timezone: "Mars/Olympus_Mons" }, "timezone", "Mars"],
    ["an offset as timezone", { timezone: "+02:00" }, "timezone", null],
    ["an unknown field", { colour: "red" }, "colour", "red"],
  ])("refuses %s with a 400 that does not quote the value, and stores nothing", async (_, change, field, sent) => {
    const user = await createUser(svc, key);
    const body = { kind: "stress", label: "Exams", start_at: "2026-03-01T00:00:00Z", ...change };
    const answer = await svc.call(tagsOf(user), { key, body });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.headers.get("content-type")).toContain("application/problem+json");
    expect(answer.body.detail).toContain(field);
    if (sent) expect(answer.text).not.toContain(sent);
    expect(await svc.db.timeTag.count({ where: { userId: user } })).toBe(0);
    expect(await eventsOf(user)).toEqual([]);
  });

  it("never writes tag text to the logs", async () => {
    const user = await createUser(svc, key);
    const tag = await createTag(user, { kind: "custom", label: "Label-in-logs-7f3a", note: "Note-in-logs-7f3a", start_at: "2026-03-01T00:00:00Z" });
    await patch(user, tag.tag_id, { label: "Patched-in-logs-7f3a" });
    await svc.call(tagsOf(user), { key, body: { kind: "custom", label: `Refused-in-logs-7f3a${"z".repeat(200)}`, start_at: "2026-03-01T00:00:00Z" } });
    expect(svc.logs.join("\n")).not.toContain("in-logs-7f3a");
  });
});

describe("GET /v1/users/{id}/tags", () => {
  it("lists the tags overlapping the window, ongoing ones included, oldest first", async () => {
    const user = await createUser(svc, key);
    const window = "start=2026-03-10T00:00:00Z&end=2026-03-20T00:00:00Z";
    const make = (label: string, start_at: string, end_at?: string, kind = "travel") =>
      createTag(user, { kind, label, start_at, ...(end_at && { end_at }) }).then((tag) => tag.tag_id);
    const before = await make("before", "2026-03-01T00:00:00Z", "2026-03-05T00:00:00Z");
    const endsAtStart = await make("ends at start", "2026-03-05T00:00:00Z", "2026-03-10T00:00:00Z");
    const straddlesStart = await make("straddles start", "2026-03-08T00:00:00Z", "2026-03-12T00:00:00Z");
    const inside = await make("inside", "2026-03-12T00:00:00Z", "2026-03-13T00:00:00Z", "alcohol");
    const instantAtStart = await make("instant at start", "2026-03-10T00:00:00Z", "2026-03-10T00:00:00Z", "caffeine");
    const covers = await make("covers", "2026-03-02T00:00:00Z", "2026-03-31T00:00:00Z");
    const straddlesEnd = await make("straddles end", "2026-03-19T00:00:00Z", "2026-03-25T00:00:00Z");
    const startsAtEnd = await make("starts at end", "2026-03-20T00:00:00Z", "2026-03-22T00:00:00Z");
    const after = await make("after", "2026-03-25T00:00:00Z", "2026-03-26T00:00:00Z");
    const ongoingBefore = await make("ongoing since before", "2026-02-01T00:00:00Z", undefined, "injury");
    const ongoingInside = await make("ongoing since inside", "2026-03-15T00:00:00Z", undefined, "injury");
    const ongoingAfter = await make("ongoing since after", "2026-03-21T00:00:00Z", undefined, "injury");

    expect(await listIds(user, window)).toEqual([ongoingBefore, covers, straddlesStart, instantAtStart, inside, ongoingInside, straddlesEnd]);
    expect(await listIds(user, `${window}&kind=injury`)).toEqual([ongoingBefore, ongoingInside]);
    expect(await listIds(user, "start=2026-03-21T00:00:00Z")).toEqual([ongoingBefore, covers, ongoingInside, straddlesEnd, startsAtEnd, ongoingAfter, after]);
    expect(await listIds(user, "end=2026-03-05T00:00:00Z")).toEqual([ongoingBefore, before, covers]);
    expect((await listIds(user, "")).sort()).toEqual(
      [before, endsAtStart, straddlesStart, inside, instantAtStart, covers, straddlesEnd, startsAtEnd, after, ongoingBefore, ongoingInside, ongoingAfter].sort(),
    );
  });

  it("pages through next_cursor in (start_at, tag_id) order with no gaps or repeats", async () => {
    const user = await createUser(svc, key);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) {
      // Pairs share a start_at, so the order falls back on tag_id.
      const day = String(1 + Math.floor(i / 2)).padStart(2, "0");
      ids.push((await createTag(user, { kind: "sauna", label: `Sauna ${i}`, start_at: `2026-05-${day}T18:00:00Z`, end_at: `2026-05-${day}T18:30:00Z` })).tag_id);
    }
    const items = await readAllPages<Tag>(svc, tagsOf(user), key, 2);
    expect(items.map((tag) => tag.tag_id).sort()).toEqual([...ids].sort());
    const order = items.map((tag) => `${tag.start_at}|${tag.tag_id}`);
    expect(order).toEqual([...order].sort());

    const window = await readAllPages<Tag>(svc, `${tagsOf(user)}?kind=sauna&start=2026-05-02&end=2026-05-04`, key, 1);
    expect(window.map((tag) => tag.label).sort()).toEqual(["Sauna 2", "Sauna 3", "Sauna 4", "Sauna 5"]);
  });

  it.each([
    ["limit=1001", "limit"],
    ["limit=0", "limit"],
    ["cursor=garbage", "cursor"],
    ["kind=sleepy", "kind"],
    ["start=2026-03-10&end=2026-03-01", "end"],
    ["start=yesterday", "start"],
  ])("answers 400 for %s", async (query, field) => {
    const user = await createUser(svc, key);
    const answer = await svc.call(`${tagsOf(user)}?${query}`, { key });
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.detail).toContain(field);
  });
});

describe("PATCH /v1/users/{id}/tags/{tag_id}", () => {
  it("changes the fields sent and writes tag.updated; closing and reopening an ongoing tag", async () => {
    const user = await createUser(svc, key);
    const tag = await createTag(user, { kind: "illness", label: "Flu", note: "Fever", start_at: "2026-03-01T00:00:00Z", timezone: "Europe/Berlin" });

    const changed = await patch(user, tag.tag_id, { label: "Influenza", end_at: "2026-03-06T12:00:00Z", note: null });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body).toMatchObject({ tag_id: tag.tag_id, kind: "illness", label: "Influenza", note: null, end_at: "2026-03-06T12:00:00.000Z", timezone: "Europe/Berlin" });
    expect(Date.parse(changed.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(tag.updated_at));
    expect((await svc.call(tagPath(user, tag.tag_id), { key })).body).toEqual(changed.body);

    const reopened = await patch(user, tag.tag_id, { end_at: null, kind: "injury", timezone: null });
    expect(reopened.body).toMatchObject({ end_at: null, kind: "injury", timezone: null, label: "Influenza" });

    const events = await eventsOf(user);
    expect(events.map((event) => event.type).sort()).toEqual(["tag.created", "tag.updated", "tag.updated"]);
    for (const event of events) expect(event.data).toEqual({ user_id: user, external_ref: null, tag_id: tag.tag_id });
  });

  it("sends no event and keeps updated_at for a change that changes nothing", async () => {
    const user = await createUser(svc, key);
    const tag = await createTag(user, { kind: "race", label: "City marathon", start_at: "2026-04-12T07:00:00Z", end_at: "2026-04-12T11:00:00Z" });
    const same = await patch(user, tag.tag_id, { kind: "race", label: "City marathon", start_at: "2026-04-12T09:00:00+02:00", note: null });
    expect(same.status, same.text).toBe(200);
    expect(same.body).toEqual(tag);
    expect((await patch(user, tag.tag_id, {})).body).toEqual(tag);
    expect(await eventTypesOf(user)).toEqual(["tag.created"]);
  });

  it("refuses an end_at before start_at, also when only start_at moves, changing nothing", async () => {
    const user = await createUser(svc, key);
    const tag = await createTag(user, { kind: "vacation", label: "Alps", start_at: "2026-07-01T00:00:00Z", end_at: "2026-07-10T00:00:00Z" });
    const early = await patch(user, tag.tag_id, { end_at: "2026-06-30T00:00:00Z" });
    expect(early.status).toBe(400);
    expect(early.body.detail).toContain("end_at");
    expect((await patch(user, tag.tag_id, { start_at: "2026-07-11T00:00:00Z" })).status).toBe(400);
    const label = await patch(user, tag.tag_id, { label: `Secret trip ${"x".repeat(200)}` });
    expect(label.status).toBe(400);
    expect(label.text).not.toContain("Secret trip");
    expect((await svc.call(tagPath(user, tag.tag_id), { key })).body).toEqual(tag);
    expect(await eventTypesOf(user)).toEqual(["tag.created"]);
  });
});

describe("DELETE /v1/users/{id}/tags/{tag_id}", () => {
  it("deletes the tag (204) and writes tag.deleted; then the tag is 404 everywhere", async () => {
    const user = await createUser(svc, key);
    const tag = await createTag(user, { kind: "meditation", label: "Evening sit", start_at: "2026-03-01T20:00:00Z" });
    const deleted = await svc.call(tagPath(user, tag.tag_id), { key, method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect(await eventTypesOf(user)).toEqual(["tag.created", "tag.deleted"]);
    const event = await svc.db.outboxEvent.findFirst({ where: { userId: user, type: "tag.deleted" } });
    expect(event?.data).toEqual({ user_id: user, external_ref: null, tag_id: tag.tag_id });

    expect((await svc.call(tagPath(user, tag.tag_id), { key })).status).toBe(404);
    expect((await patch(user, tag.tag_id, { label: "Again" })).status).toBe(404);
    expect((await svc.call(tagPath(user, tag.tag_id), { key, method: "DELETE" })).status).toBe(404);
    expect(await listIds(user, "")).toEqual([]);
    expect((await eventsOf(user)).length).toBe(2);
  });
});

describe("who may use the tag routes", () => {
  it("answers 404 for another tenant's user, another user's tag and a user being deleted; 403 for a user token", async () => {
    const user = await createUser(svc, key);
    const tag = await createTag(user, { kind: "altitude", label: "Camp", start_at: "2026-06-01T00:00:00Z" });
    const body = { kind: "heat", label: "Hot week", start_at: "2026-06-01T00:00:00Z" };

    expect((await svc.call(tagsOf(user), { key: otherKey, body })).status).toBe(404);
    expect((await svc.call(tagsOf(user), { key: otherKey })).status).toBe(404);
    expect((await svc.call(tagPath(user, tag.tag_id), { key: otherKey })).status).toBe(404);
    expect((await patch(user, tag.tag_id, { label: "Taken over" }, otherKey)).status).toBe(404);
    expect((await svc.call(tagPath(user, tag.tag_id), { key: otherKey, method: "DELETE" })).status).toBe(404);
    const sibling = await createUser(svc, key);
    expect((await svc.call(tagPath(sibling, tag.tag_id), { key })).status).toBe(404);
    expect((await patch(sibling, tag.tag_id, { label: "Taken over" })).status).toBe(404);
    expect((await svc.call(tagPath(sibling, tag.tag_id), { key, method: "DELETE" })).status).toBe(404);

    const token = await mintToken(svc, key, user, ["read", "upload"]);
    expect((await svc.call(tagsOf(user), { key: token })).status).toBe(403);
    expect((await svc.call(tagsOf(user), { key: token, body })).status).toBe(403);
    expect((await svc.call(tagPath(user, tag.tag_id), { key: token })).status).toBe(403);
    expect((await svc.call(tagsOf(user), {})).status).toBe(401);

    expect((await svc.call(`/v1/users/${user}`, { key, method: "DELETE" })).status).toBe(202);
    expect((await svc.call(tagsOf(user), { key })).status).toBe(404);
    expect((await svc.call(tagsOf(user), { key, body })).status).toBe(404);
    expect((await svc.call(tagPath(user, tag.tag_id), { key })).status).toBe(404);
    expect((await patch(user, tag.tag_id, { label: "Late" })).status).toBe(404);
    expect((await svc.call(tagPath(user, tag.tag_id), { key, method: "DELETE" })).status).toBe(404);
    expect((await eventTypesOf(user)).filter((type) => type.startsWith("tag."))).toEqual(["tag.created"]);
    expect((await svc.call(`/v1/users/${user}/tags/not-a-uuid`, { key })).status).toBe(400);
  });
});
