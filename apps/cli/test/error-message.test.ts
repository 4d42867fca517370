import { describe, expect, it } from "vitest";
import { errorMessage } from "../src/error-message.ts";

describe("errorMessage (the CLI's error printer)", () => {
  it("prints anything a command throws, and never throws itself", () => {
    expect(errorMessage(new Error("no database"))).toBe("no database");
    expect(errorMessage(undefined)).toBe("failed without a reason (undefined)");
    expect(errorMessage(null)).toBe("failed without a reason (null)");
    expect(errorMessage("plain text")).toBe("plain text");
    expect(errorMessage({ message: "like an error" })).toBe("like an error");
    expect(errorMessage({ code: 7 })).toBe('{"code":7}');
    expect(errorMessage(Object.create(null))).toBe("{}");
    expect(errorMessage(10n)).toBe("10");
    const hostile = new Proxy({}, { get: () => { throw new Error("boom"); }, getPrototypeOf: () => { throw new Error("boom"); } });
    expect(errorMessage(hostile)).toBe("failed with an error that cannot be printed");
  });
});
