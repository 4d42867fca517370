/**
 * Key -> value for a short while, at most `maxEntries` of them (the oldest goes first). A
 * lookup that was under way while something was forgotten is not stored (the generation
 * moved), so it cannot bring back what a change ended.
 */
export class ShortLivedCache<V> {
  private readonly entries = new Map<string, { value: V; until: number }>();
  private changes = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(ttlMs: number, maxEntries: number) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
  }

  get(key: string, now: number): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (now < entry.until) return entry.value;
    this.entries.delete(key);
    return undefined;
  }

  /** A stamp to pass to `set`: the entry is dropped if something was forgotten in between. */
  generation(): number {
    return this.changes;
  }

  /** Keeps the value for the cache's bound, or until `expiresAt` if sooner. */
  set(key: string, value: V, now: number, generation: number, expiresAt?: Date): void {
    if (generation !== this.changes) return;
    const until = Math.min(now + this.ttlMs, expiresAt?.getTime() ?? Number.POSITIVE_INFINITY);
    if (until <= now) return;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, { value, until });
  }

  /** Forgets every value the predicate matches; call it after the change is committed. */
  forgetWhere(matches: (value: V) => boolean): void {
    this.changes++;
    for (const [key, { value }] of this.entries) {
      if (matches(value)) this.entries.delete(key);
    }
  }

  clear(): void {
    this.changes++;
    this.entries.clear();
  }
}
