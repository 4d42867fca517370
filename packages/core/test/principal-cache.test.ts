import { describe, expect, it } from "vitest";
import { forgetCachedIdentities, type Principal, principalCache, readableUserCache, type UserRow } from "../src/identity/index.ts";
import { ShortLivedCache } from "../src/platform/index.ts";

const tenant = (n: number): Principal => ({ kind: "tenant", tenantId: `t${n}`, keyId: `k${n}` });
const user: Principal = { kind: "user", tenantId: "t1", userId: "u1", scopes: ["read"], tokenId: "tok1" };
const admin: Principal = { kind: "admin", adminKeyId: "a1" };

describe("principal and readable user caches", () => {
  it("keeps an entry for its bound, and no longer than a token's own expiry", () => {
    const cache = new ShortLivedCache<Principal>(2_000, 10);
    cache.set("key", tenant(1), 0, cache.generation());
    expect(cache.get("key", 1_999)).toEqual(tenant(1));
    expect(cache.get("key", 2_000)).toBeUndefined();

    cache.set("token", user, 0, cache.generation(), new Date(500));
    expect(cache.get("token", 499)).toEqual(user);
    expect(cache.get("token", 500)).toBeUndefined();
    cache.set("expired", user, 600, cache.generation(), new Date(500));
    expect(cache.get("expired", 600)).toBeUndefined();
  });

  it("does not store a lookup that was under way while a change was forgotten", () => {
    const cache = new ShortLivedCache<Principal>(2_000, 10);
    const before = cache.generation();
    cache.forgetWhere(() => false);
    cache.set("key", tenant(1), 0, before);
    expect(cache.get("key", 1)).toBeUndefined();
  });

  it("forgets the principals and readable users a change affects, and only those", () => {
    const cache = principalCache;
    const userRow = (id: string, tenantId: string): UserRow => ({ id, tenantId, externalRef: null, status: "active", createdAt: new Date(0) });
    const now = Date.now();
    const fill = () => {
      for (const [hash, principal] of [["t1", tenant(1)], ["t2", tenant(2)], ["u1", user], ["a1", admin]] as const) {
        cache.set(hash, principal, now, cache.generation());
      }
      for (const row of [userRow("u1", "t1"), userRow("u2", "t1"), userRow("u3", "t2")]) readableUserCache.set(row.id, row, now, readableUserCache.generation());
    };
    const left = () => ["t1", "t2", "u1", "a1"].filter((hash) => cache.get(hash, now + 1));
    const usersLeft = () => ["u1", "u2", "u3"].filter((id) => readableUserCache.get(id, now + 1));
    fill();
    forgetCachedIdentities({ tenantId: "t1" });
    expect(left()).toEqual(["t2", "a1"]);
    expect(usersLeft()).toEqual(["u3"]);
    fill();
    forgetCachedIdentities({ userId: "u1" });
    expect(left()).toEqual(["t1", "t2", "a1"]);
    expect(usersLeft()).toEqual(["u2", "u3"]);
    fill();
    forgetCachedIdentities({ keyId: "k2" });
    expect(left()).toEqual(["t1", "u1", "a1"]);
    expect(usersLeft()).toEqual(["u1", "u2", "u3"]);
    fill();
    forgetCachedIdentities({ adminKeyId: "a1" });
    expect(left()).toEqual(["t1", "t2", "u1"]);
    principalCache.clear();
    readableUserCache.clear();
  });

  it("holds at most its size, dropping the oldest entry", () => {
    const cache = new ShortLivedCache<Principal>(2_000, 3);
    for (let n = 1; n <= 4; n++) cache.set(`h${n}`, tenant(n), 0, cache.generation());
    expect(cache.get("h1", 1)).toBeUndefined();
    expect([2, 3, 4].map((n) => cache.get(`h${n}`, 1))).toEqual([tenant(2), tenant(3), tenant(4)]);
  });
});
