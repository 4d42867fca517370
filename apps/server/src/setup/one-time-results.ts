import { randomBytes } from "node:crypto";

/**
 * Results held in this process for the one GET that shows them (Post/Redirect/Get), under a
 * random id, for a short time. Taking a result removes it: it is shown once. A result nobody
 * took is dropped when it expires (checked on every put and take; no timer).
 */
export class OneTimeResults<T> {
  private readonly entries = new Map<string, { value: T; expiresAt: number }>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(ttlMs: number, now: () => number = Date.now) {
    this.ttlMs = ttlMs;
    this.now = now;
  }

  /** Holds the value; returns its id (32 random bytes, base64url). */
  put(value: T): string {
    this.dropExpired();
    const id = randomBytes(32).toString("base64url");
    this.entries.set(id, { value, expiresAt: this.now() + this.ttlMs });
    return id;
  }

  /** The value of the id, once; undefined when unknown, taken or expired. */
  take(id: string): T | undefined {
    this.dropExpired();
    const entry = this.entries.get(id);
    this.entries.delete(id);
    return entry?.value;
  }

  private dropExpired(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(id);
  }
}
