import { describe, expect, it } from "vitest";
import { type Principal, PrincipalCache } from "../src/identity/index.ts";

const tenant = (n: number): Principal => ({ kind: "tenant", tenantId: `t${n}`, keyId: `k${n}` });
const user: Principal = { kind: "user", tenantId: "t1", userId: "u1", scopes: ["read"], tokenId: "tok1" };
const admin: Principal = { kind: "admin", adminKeyId: "a1" };

describe("principal cache", () => {
  it("keeps an entry for its bound, and no longer than a token's own expiry", () => {
    const cache = new PrincipalCache(2_000, 10);
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
    const cache = new PrincipalCache(2_000, 10);
    const before = cache.generation();
    cache.forget({ keyId: "k9" });
    cache.set("key", tenant(1), 0, before);
    expect(cache.get("key", 1)).toBeUndefined();
  });

  it("forgets what a change affects, and only that", () => {
    const cache = new PrincipalCache(2_000, 10);
    const fill = () => {
      for (const [hash, principal] of [["t1", tenant(1)], ["t2", tenant(2)], ["u1", user], ["a1", admin]] as const) {
        cache.set(hash, principal, 0, cache.generation());
      }
    };
    const left = () => ["t1", "t2", "u1", "a1"].filter((hash) => cache.get(hash, 1));
    fill();
    cache.forget({ tenantId: "t1" });
    expect(left()).toEqual(["t2", "a1"]);
    fill();
    cache.forget({ userId: "u1" });
    expect(left()).toEqual(["t1", "t2", "a1"]);
    fill();
    cache.forget({ keyId: "k2" });
    expect(left()).toEqual(["t1", "u1", "a1"]);
    fill();
    cache.forget({ adminKeyId: "a1" });
    expect(left()).toEqual(["t1", "t2", "u1"]);
  });

  it("holds at most its size, dropping the oldest entry", () => {
    const cache = new PrincipalCache(2_000, 3);
    for (let n = 1; n <= 4; n++) cache.set(`h${n}`, tenant(n), 0, cache.generation());
    expect(cache.get("h1", 1)).toBeUndefined();
    expect([2, 3, 4].map((n) => cache.get(`h${n}`, 1))).toEqual([tenant(2), tenant(3), tenant(4)]);
  });
});
