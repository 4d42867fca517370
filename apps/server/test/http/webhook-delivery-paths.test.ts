import { randomUUID } from "node:crypto";
import { eventBody } from "@svc/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";

// The integer id in the path of POST .../retry and .../replay, in a process that has answered
// no GET of a delivery yet. trpc-to-openapi coerces a schema's strings only for requests without
// a body, and its coercion changes the schema in place, so these routes once worked only after a
// GET of a delivery had run in the process (this file's process runs no such GET first).

let svc: TestService;
let key: string;
let tenantId: string;

beforeAll(async () => {
  svc = await startTestService({ SVC_ROLE: "api" });
  ({ tenant_id: tenantId, api_key: key } = await svc.createTenant());
});
afterAll(() => svc?.stop());

async function insertDelivery(endpointId: string, status: "done" | "parked"): Promise<number> {
  const eventId = randomUUID();
  const body = eventBody({ id: eventId, type: "tag.created", timestamp: new Date(), data: { user_id: randomUUID(), external_ref: null, tag_id: randomUUID() } });
  const row = await svc.db.webhookDelivery.create({
    data: { endpointId, tenantId, eventId, eventType: "tag.created", body, status, attempts: 1, attemptsMade: 1 },
    select: { id: true },
  });
  return Number(row.id);
}

describe("POST .../deliveries/{delivery_id}/retry and /replay before any GET of a delivery", () => {
  it("take the integer id from the path (202)", async () => {
    const created = await svc.call("/v1/webhooks", { key, body: { url: "https://hooks.example.com/svc" } });
    expect(created.status, created.text).toBe(201);
    const deliveries = `/v1/webhooks/${created.body.id}/deliveries`;
    const parked = await insertDelivery(created.body.id, "parked");
    const done = await insertDelivery(created.body.id, "done");

    const retried = await svc.call(`${deliveries}/${parked}/retry`, { key, method: "POST" });
    expect(retried.status, retried.text).toBe(202);
    const replayed = await svc.call(`${deliveries}/${done}/replay`, { key, method: "POST" });
    expect(replayed.status, replayed.text).toBe(202);
    expect(replayed.body.replay_of).toBe(done);
  });
});
