import { randomBytes } from "node:crypto";
import {
  applicationIdOf,
  DEFAULT_SYNC_SETTINGS,
  emptyParsedRecords,
  providerCatalogOf,
  queueSyncRun,
  sealTokens,
  type Connector,
  type ProviderCatalog,
  type SyncSettings,
} from "@svc/core";
import type { JobQueue } from "@svc/jobs";
import { PROVIDER_REGISTRY } from "@svc/providers";
import { http, HttpResponse } from "msw";
import { TEST_ENCRYPTION_KEY, testSealer } from "./webhooks.ts";
import type { TestService } from "./test-service.ts";

/**
 * A made-up OAuth provider for the sync engine tests (`synctest`, rotating refresh tokens,
 * an application quota of 10 requests an hour) and msw handlers playing its token endpoint
 * and paged data API at https://synctest.test. Independent of any real connector's details.
 */

const ORIGIN = "https://synctest.test";
export const SYNCTEST_ENV = {
  SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
  SVC_SYNCTEST_CLIENT_ID: "synctest-client-id",
  SVC_SYNCTEST_CLIENT_SECRET: "synctest-client-secret",
};
const INSTANCE_KEYS = { CLIENT_ID: SYNCTEST_ENV.SVC_SYNCTEST_CLIENT_ID, CLIENT_SECRET: SYNCTEST_ENV.SVC_SYNCTEST_CLIENT_SECRET };

export const SYNCTEST: Connector = {
  slug: "synctest",
  name: "Sync test",
  kind: "push",
  dataTypes: ["activity"],
  keys: [
    { name: "CLIENT_ID", required: true, secret: false, env: "SVC_SYNCTEST_CLIENT_ID" },
    { name: "CLIENT_SECRET", required: true, secret: true, env: "SVC_SYNCTEST_CLIENT_SECRET" },
  ],
  applicationKeys: ["CLIENT_ID"],
  urls: { authorize: `${ORIGIN}/oauth/authorize`, token: `${ORIGIN}/oauth/token`, api: `${ORIGIN}/api` },
  oauth: { scopes: ["activity"], pkce: true, clientAuth: "client_secret_basic", rotatesRefreshToken: true },
  backfillDays: 90,
  pullIntervalMinutes: 60,
  rateLimits: { app: { requests: 10, windowSeconds: 3600 } },
  notificationTypes: ["activity", "sleep"],
  identify: async () => ({ providerUserId: "unused" }),
  /** One request per page of `/api/data` until the answer names no next page; each page stored. */
  async pull(context) {
    let page: number | null = 1;
    while (page !== null) {
      const url = new URL(`${context.urls.api}/data`);
      url.searchParams.set("start", context.window.start.toISOString());
      url.searchParams.set("end", context.window.end.toISOString());
      url.searchParams.set("page", String(page));
      if (context.dataType) url.searchParams.set("type", context.dataType);
      const body = (await context.request(url)) as { items: unknown[]; next: number | null };
      await context.store("synctest-data", body);
      page = body.next;
    }
  },
  parsers: { "synctest-data": () => emptyParsedRecords() },
};

/** A provider this instance has no keys for (not available to any tenant). */
export const SYNC_KEYLESS: Connector = {
  ...SYNCTEST,
  slug: "synckeyless",
  name: "Sync keyless",
  keys: SYNCTEST.keys.map((spec) => ({ ...spec, env: spec.env.replace("SYNCTEST", "SYNCKEYLESS") })),
  parsers: {},
};

export const SYNC_CATALOG: ProviderCatalog = providerCatalogOf([...PROVIDER_REGISTRY.all(), SYNCTEST, SYNC_KEYLESS]);

/** Retries in fractions of a second; quota episodes longer than 30 minutes break the connection. */
export const FAST_SYNC: SyncSettings = {
  ...DEFAULT_SYNC_SETTINGS,
  retryDelaysMs: [1500, 300],
  rateLimitedDefaultMs: 500,
  quotaBrokenAfterMs: 30 * 60 * 1000,
};

export interface DataRequest {
  url: URL;
  accessToken: string;
}

/** What the fake provider saw, and how it answers. */
export class FakeSyncProvider {
  readonly dataRequests: DataRequest[] = [];
  /** Refresh tokens presented at the token endpoint, in order. */
  readonly refreshes: string[] = [];
  /** Answers a data request (after the access token was checked); default one page, no items. */
  onData: (request: DataRequest) => Response | Promise<Response> = () => HttpResponse.json({ items: [], next: null });
  /** While set, the token endpoint waits for it (two refreshes made to overlap). */
  tokenHold: Promise<void> | null = null;
  private readonly accessTokens = new Set<string>();
  /** Refresh token -> whether it was spent (rotation: each works once). */
  private readonly refreshTokens = new Map<string, boolean>();

  /** A grant the provider knows: an access token (valid unless `accessValid: false`) and its refresh token. */
  grant(options: { accessValid?: boolean } = {}): { accessToken: string; refreshToken: string } {
    const accessToken = `at-${randomBytes(8).toString("hex")}`;
    const refreshToken = `rt-${randomBytes(8).toString("hex")}`;
    if (options.accessValid !== false) this.accessTokens.add(accessToken);
    this.refreshTokens.set(refreshToken, false);
    return { accessToken, refreshToken };
  }

  /** The user revoked the app at the provider: every token of the grant stops working. */
  revoke(grant: { accessToken: string; refreshToken: string }): void {
    this.accessTokens.delete(grant.accessToken);
    this.refreshTokens.set(grant.refreshToken, true);
  }

  handlers() {
    return [
      http.post(`${ORIGIN}/oauth/token`, async ({ request }) => {
        const form = new URLSearchParams(await request.text());
        const presented = form.get("refresh_token") ?? "";
        this.refreshes.push(presented);
        if (this.tokenHold) await this.tokenHold;
        if (form.get("grant_type") !== "refresh_token" || this.refreshTokens.get(presented) !== false) {
          return HttpResponse.json({ error: "invalid_grant" }, { status: 400 });
        }
        this.refreshTokens.set(presented, true);
        const next = this.grant();
        return HttpResponse.json({ access_token: next.accessToken, refresh_token: next.refreshToken, token_type: "bearer", expires_in: 3600 });
      }),
      http.get(`${ORIGIN}/api/data`, async ({ request }) => {
        const accessToken = (request.headers.get("authorization") ?? "").replace(/^Bearer /, "");
        if (!this.accessTokens.has(accessToken)) return new HttpResponse(null, { status: 401 });
        const seen = { url: new URL(request.url), accessToken };
        this.dataRequests.push(seen);
        return this.onData(seen);
      }),
    ];
  }
}

/** A gate a fake answer waits at until the test opens it. */
export function gate(): { wait: Promise<void>; open(): void } {
  let open = () => {};
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/**
 * A connection row as a consent would write it (tokens sealed with the test key), made with
 * the instance's keys of `synctest` unless told otherwise.
 */
export async function insertConnection(
  svc: Pick<TestService, "db">,
  input: {
    userId: string;
    provider?: string;
    tokens?: { accessToken: string; refreshToken: string | null };
    accessExpiresAt?: Date | null;
    status?: "active" | "needs_reauth" | "disconnected";
    providerUserId?: string;
    syncedThrough?: Date | null;
    nextPullAt?: Date | null;
    applicationId?: string;
    keySource?: string;
    brokenReason?: string | null;
    scopes?: string[];
  },
): Promise<bigint> {
  const provider = input.provider ?? "synctest";
  const tokens = input.tokens ?? { accessToken: "at-none", refreshToken: null };
  const row = await svc.db.connection.create({
    data: {
      userId: input.userId,
      provider,
      status: input.status ?? "active",
      providerUserId: input.providerUserId ?? `pu-${randomBytes(6).toString("hex")}`,
      scopes: input.scopes ?? ["activity"],
      sealedTokens: sealTokens(testSealer(), { ...tokens, expiresAt: input.accessExpiresAt ?? null, scopes: null, raw: {} }),
      accessExpiresAt: input.accessExpiresAt === undefined ? new Date(Date.now() + 3600_000) : input.accessExpiresAt,
      keySource: input.keySource ?? "instance",
      applicationId: input.applicationId ?? applicationIdOf(SYNCTEST, INSTANCE_KEYS),
      syncedThrough: input.syncedThrough ?? null,
      nextPullAt: input.nextPullAt ?? null,
      brokenReason: input.brokenReason ?? null,
      brokenAction: input.brokenReason ? "wait" : null,
      brokenSince: input.brokenReason ? new Date() : null,
    },
    select: { id: true },
  });
  return row.id;
}

/** Queues a run as the engine's callers do (connect, plan, notifications), through the test's own queue. */
export async function queueRun(
  svc: Pick<TestService, "db">,
  jobs: JobQueue,
  input: { connectionId: bigint; userId: string; trigger: "backfill" | "scheduled" | "notification" | "manual"; start: Date; end: Date; provider?: string; dataType?: string | null },
  sync: SyncSettings = FAST_SYNC,
) {
  return svc.db.$transaction((tx) =>
    queueSyncRun({ jobs, sync }, tx, {
      connectionId: input.connectionId,
      userId: input.userId,
      provider: input.provider ?? "synctest",
      trigger: input.trigger,
      windowStart: input.start,
      windowEnd: input.end,
      dataType: input.dataType ?? null,
    }),
  );
}

export function runRow(svc: Pick<TestService, "db">, id: bigint | number) {
  return svc.db.syncRun.findFirstOrThrow({ where: { id: BigInt(id) } });
}

export function connectionRow(svc: Pick<TestService, "db">, id: bigint) {
  return svc.db.connection.findFirstOrThrow({ where: { id } });
}

/** Events written for the user, oldest first. */
export function eventsOf(svc: Pick<TestService, "db">, userId: string, type?: string) {
  return svc.db.outboxEvent.findMany({ where: { userId, ...(type && { type }) }, orderBy: { createdAt: "asc" } });
}
