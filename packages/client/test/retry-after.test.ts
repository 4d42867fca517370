import { describe, expect, it } from "vitest";
import { retryAfterMs } from "../src/retry-after.ts";

describe("retryAfterMs", () => {
  const now = Date.parse("2026-11-21T12:00:00Z");

  it("reads delay-seconds", () => {
    expect(retryAfterMs("0", now)).toBe(0);
    expect(retryAfterMs(" 7 ", now)).toBe(7000);
  });

  it("reads an HTTP date, and one in the past as no wait", () => {
    expect(retryAfterMs("Sat, 21 Nov 2026 12:00:30 GMT", now)).toBe(30_000);
    expect(retryAfterMs("Sat, 21 Nov 2026 11:59:00 GMT", now)).toBe(0);
  });

  it("has nothing to say when absent or unreadable", () => {
    expect(retryAfterMs(null, now)).toBeUndefined();
    expect(retryAfterMs("soon", now)).toBeUndefined();
    expect(retryAfterMs("-5", now)).toBeUndefined();
  });
});
