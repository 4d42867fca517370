import { describe, expect, it } from "vitest";
import { statementNamer } from "../src/statement-names.ts";

describe("statementNamer", () => {
  it("names each statement the same every time, and no more than `max` of them", () => {
    const name = statementNamer(2);
    const first = name({ sql: "SELECT 1" });
    expect(first).toMatch(/^svc_[\w-]+$/);
    expect(name({ sql: "SELECT 1" })).toBe(first);
    const second = name({ sql: "SELECT 2" });
    expect(second).not.toBe(first);
    // The third distinct statement runs unnamed; the named ones keep their names.
    expect(name({ sql: "SELECT 3" })).toBeUndefined();
    expect(name({ sql: "SELECT 3" })).toBeUndefined();
    expect(name({ sql: "SELECT 2" })).toBe(second);
  });
});
