import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openShare, type OpeningStage } from "../../../share-viewer/src/link/open-share.ts";
import { parseShlink } from "../../../share-viewer/src/link/shlink.ts";
import { at, createUser, startWithTwoTenants, writeSamples } from "../helpers/records.ts";
import type { TestService } from "../helpers/test-service.ts";

// The viewer's opening code (fetch, WebCrypto, DecompressionStream) run against a real server:
// the stages it reports, and what it says of a share that cannot be opened.
describe("the viewer's openShare against the server", () => {
  let svc: TestService;
  let key: string;
  let user: string;

  beforeAll(async () => {
    ({ svc, key } = await startWithTwoTenants());
    user = await createUser(svc, key);
    await writeSamples(
      svc,
      user,
      "withings",
      Array.from({ length: 200 }, (_, i) => ({ type: "heart_rate", value: 60 + (i % 30), start_date: at(new Date(Date.parse("2026-03-01T00:00:00Z") + i * 600_000).toISOString()), source: "withings" })),
    );
  });
  afterAll(async () => {
    await svc?.stop();
  });

  async function share(extra: Record<string, unknown> = {}) {
    const answer = await svc.call(`/v1/users/${user}/shares`, {
      key,
      body: { label: "Dr. Lee", categories: ["heart"], start: "2026-03-01T00:00:00Z", end: "2026-03-03T00:00:00Z", expires_at: new Date(Date.now() + 86_400_000).toISOString(), ...extra },
    });
    expect(answer.status, answer.text).toBe(201);
    const parsed = parseShlink(answer.body.shlink as string);
    if (!parsed.ok) throw new Error(parsed.reason);
    return { id: answer.body.id as string, link: parsed.link };
  }

  it("reports the download (bytes of the Content-Length), decryption, inflation and reading, in order", async () => {
    const { link } = await share({ detail: "full" });
    const stages: OpeningStage[] = [];
    const outcome = await openShare(link, undefined, (stage) => stages.push(stage));
    expect(outcome.kind).toBe("opened");
    if (outcome.kind !== "opened") return;
    expect(outcome.bundle.entry).toHaveLength(200);
    const downloads = stages.filter((stage) => stage.stage === "download");
    expect(downloads[0]).toMatchObject({ received: 0 });
    const total = downloads[0]!.stage === "download" ? downloads[0]!.total : null;
    expect(total).toBeGreaterThan(0);
    expect(downloads.at(-1)).toEqual({ stage: "download", received: total, total });
    expect(stages.slice(downloads.length).map((stage) => stage.stage)).toEqual(["decrypt", "inflate", "read"]);
  });

  it("says a revoked share was revoked by its owner, an expired one expired", async () => {
    const revoked = await share();
    expect((await svc.call(`/v1/users/${user}/shares/${revoked.id}/revoke`, { key, method: "POST" })).status).toBe(200);
    expect(await openShare(revoked.link)).toEqual({ kind: "gone", why: { status: "revoked", reason: "owner" } });
    const expired = await share();
    await svc.db.share.updateMany({ where: { id: expired.id }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await openShare(expired.link)).toEqual({ kind: "gone", why: { status: "expired" } });
    const unknown = { ...expired.link, url: expired.link.url.replace(expired.id, "00000000-0000-4000-8000-000000000000") };
    expect(await openShare(unknown)).toEqual({ kind: "gone", why: { status: "unknown" } });
  });
});
