import { describe, expect, it } from "vitest";
import { OneTimeResults } from "../../src/setup/one-time-results.ts";

describe("OneTimeResults (the first-run setup's keys between its POST and GET)", () => {
  it("gives a result once, under an unguessable id", () => {
    const results = new OneTimeResults<string>(60_000);
    const id = results.put("keys");
    expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(results.put("other")).not.toBe(id);
    expect(results.take("not-an-id")).toBeUndefined();
    expect(results.take(id)).toBe("keys");
    expect(results.take(id)).toBeUndefined();
  });

  it("drops a result nobody took once it expired", () => {
    let now = 1_000;
    const results = new OneTimeResults<string>(600_000, () => now);
    const id = results.put("keys");
    now += 600_000;
    expect(results.take(id)).toBeUndefined();
  });
});
