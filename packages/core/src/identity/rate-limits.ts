import type { Database } from "@svc/db";
import { AppError } from "../platform/index.ts";
import { rateLimitCounter, type SharedCounter } from "./rate-limit-repository.ts";
import type { Principal, PrincipalKind } from "./auth.ts";

/** SVC_RATE_LIMIT_*: calls per window of each kind of caller; 0 turns a limit off. */
export interface RateLimitSettings {
  /** Calls of one tenant's keys together; an instance admin key has the same limit of its own. */
  tenant: number;
  /** Calls of one user's tokens together (not counted against the tenant). */
  user: number;
  /** Length of a window in seconds; 0 turns every limit off. */
  windowSeconds: number;
}

/** Calls counted in this process alone are added to the shared count this often. */
const RATE_LIMIT_FLUSH_MS = 1_000;
/** Below this share of its limit a bucket is counted in memory; above it, every call in the database. */
const LOCAL_SHARE = 0.5;

const WHOSE: Record<PrincipalKind, string> = {
  tenant: "this tenant's API keys",
  user: "this user's tokens",
  admin: "this instance admin key",
};

/** One bucket's window as this process knows it. */
interface Bucket {
  /** The shared count (every process's calls) at the last write, this process's included. */
  shared: number;
  /** This process's calls not yet written. */
  unsent: number;
  /** This process's calls being written now. */
  sending: number;
  /** Epoch ms at which the window ends. */
  endsAt: number;
  /** The window's first write, which every call of the bucket waits for. */
  opened: Promise<void>;
}

/**
 * API rate limits, counted where a caller's secret is resolved to its principal (REST,
 * /trpc, /mcp, uploads). Each bucket has a fixed window that starts at its first call; the
 * counts live in the database so that every api process shares them, but a call does not
 * write there: while a bucket is below half its limit, this process counts in memory,
 * decides with the last shared count plus its own calls, and adds its calls to the shared
 * count once a second (one write per bucket, not per call). Above half, every call is
 * written and decided as it is counted. The tolerance: calls another process made in the
 * last second are seen a second late, and only below half the limit, so with two processes
 * the limit holds exactly and with n it can be passed by at most (n - 2) / 2 times the limit,
 * in bursts of less than a second. If the database fails, the process counts alone.
 */
export class RateLimits {
  private readonly points: Partial<Record<PrincipalKind, number>> = {};
  private readonly buckets = new Map<string, Bucket>();
  private readonly windowSeconds: number;
  private readonly counter: SharedCounter | undefined;

  constructor(db: Database, settings: RateLimitSettings) {
    this.windowSeconds = settings.windowSeconds;
    if (settings.windowSeconds === 0) return;
    const points: Record<PrincipalKind, number> = { tenant: settings.tenant, user: settings.user, admin: settings.tenant };
    for (const kind of Object.keys(points) as PrincipalKind[]) {
      if (points[kind] > 0) this.points[kind] = points[kind];
    }
    if (Object.keys(this.points).length === 0) return;
    this.counter = rateLimitCounter(db, { windowSeconds: settings.windowSeconds });
    setInterval(() => this.flush(), RATE_LIMIT_FLUSH_MS).unref();
  }

  /** Counts one call of the principal; 429 with Retry-After (whole seconds) above its limit. */
  async consume(principal: Principal): Promise<void> {
    const points = this.points[principal.kind];
    if (points === undefined) return;
    const key = `${principal.kind}:${bucketOf(principal)}`;
    let bucket = this.buckets.get(key);
    if (!bucket || Date.now() >= bucket.endsAt) {
      bucket = this.open(key);
      await bucket.opened;
      if (bucket.shared <= points) return;
    } else {
      await bucket.opened;
      if (bucket.shared + bucket.sending + bucket.unsent + 1 <= points * LOCAL_SHARE) {
        bucket.unsent++;
        return;
      }
      if (bucket.shared < points) {
        bucket.unsent++;
        await this.send(key, bucket);
        if (bucket.shared + bucket.sending + bucket.unsent <= points) return;
      }
    }
    this.refuse(principal, points, bucket.endsAt);
  }

  /** A new window for the key: its first call is written before anyone decides. */
  private open(key: string): Bucket {
    const bucket: Bucket = { shared: 0, unsent: 1, sending: 0, endsAt: Date.now() + this.windowSeconds * 1000, opened: Promise.resolve() };
    this.buckets.set(key, bucket);
    bucket.opened = this.send(key, bucket, true);
    return bucket;
  }

  /**
   * Adds the bucket's unsent calls to the shared count and learns the shared total. Only the
   * window's first call (`opening`) may create the row: calls added later go to the window the
   * row holds, and a row gone since (its tenant or user deleted) stays gone.
   */
  private async send(key: string, bucket: Bucket, opening = false): Promise<void> {
    const calls = bucket.unsent;
    if (calls === 0) return;
    bucket.unsent = 0;
    bucket.sending += calls;
    try {
      const total = opening ? await this.counter!.add(key, calls) : await this.counter!.addToOpenWindow(key, calls);
      if (!total) {
        // No window in the database any more: the calls count here alone until this one ends.
        bucket.shared += calls;
        return;
      }
      // Two additions may answer out of order: the larger total is the later one, unless a new window began.
      bucket.shared = total.opened ? total.count : Math.max(bucket.shared, total.count);
      bucket.endsAt = Date.now() + total.msLeft;
    } catch {
      // The database failed: this process counts the calls alone.
      bucket.shared += calls;
    } finally {
      bucket.sending -= calls;
    }
  }

  /** Writes every bucket's unsent calls; forgets the buckets whose window is over. */
  private flush(): void {
    const now = Date.now();
    for (const [key, bucket] of this.buckets) {
      if (now < bucket.endsAt) void this.send(key, bucket);
      else if (bucket.sending === 0) this.buckets.delete(key);
    }
  }

  private refuse(principal: Principal, points: number, endsAt: number): never {
    const retryAfter = Math.max(1, Math.ceil((endsAt - Date.now()) / 1000));
    throw new AppError(
      "too_many_requests",
      `Rate limit reached: at most ${points} calls of ${WHOSE[principal.kind]} in ${this.windowSeconds} seconds. Retry after ${retryAfter} seconds.`,
      { headers: { "Retry-After": String(retryAfter) } },
    );
  }
}

function bucketOf(principal: Principal): string {
  switch (principal.kind) {
    case "tenant":
      return principal.tenantId;
    case "user":
      return principal.userId;
    case "admin":
      return principal.adminKeyId;
  }
}
