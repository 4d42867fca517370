import { waitUntil } from "@svc/testing";
import { expect } from "vitest";
import type { TestService } from "./test-service.ts";

/**
 * Connects a user to an OAuth provider through the service as a person would: the connect
 * call, then the provider's redirect back to the callback with `code` (msw answers the token
 * exchange). Returns the authorize address the person was sent to and the stored connection.
 */
export async function connectThroughService(svc: TestService, key: string, userId: string, provider: string, code: string) {
  const started = await svc.call(`/v1/users/${userId}/connections/${provider}`, { key, body: {} });
  expect(started.status, started.text).toBe(200);
  const authorize = new URL(started.body.authorize_url);
  const state = authorize.searchParams.get("state")!;
  const callback = await fetch(`${svc.url}/oauth/${provider}/callback?${new URLSearchParams({ code, state })}`, { redirect: "manual" });
  expect(callback.status, await callback.text()).toBe(200);
  const connection = await svc.db.connection.findFirstOrThrow({ where: { userId, provider } });
  return { authorize, connection };
}

const OPEN_RUN = ["queued", "running", "retrying", "rate_limited"];

/** Waits until the user's sync runs of a provider started by `trigger` have all finished (at least one), and returns them. */
export async function finishedSyncRuns(svc: TestService, userId: string, provider: string, trigger: "backfill" | "notification", timeoutMs = 30_000) {
  const runs = () => svc.db.syncRun.findMany({ where: { userId, provider, trigger } });
  await waitUntil(async () => {
    const found = await runs();
    return found.length > 0 && found.every((run) => !OPEN_RUN.includes(run.status));
  }, timeoutMs, `the ${trigger} runs of ${provider}`);
  return runs();
}
