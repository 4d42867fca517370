import { describe, expect, it } from "vitest";
import { generateSecret, hashSecret, secretKind } from "../src/platform/secrets.ts";

describe("secrets", () => {
  it("generates prefix + 43 base62 characters for each kind", () => {
    expect(generateSecret("tenantKey")).toMatch(/^svc_sk_[0-9A-Za-z]{43}$/);
    expect(generateSecret("userToken")).toMatch(/^svc_ut_[0-9A-Za-z]{43}$/);
    expect(generateSecret("adminKey")).toMatch(/^svc_ak_[0-9A-Za-z]{43}$/);
  });

  it("never repeats and uses the whole alphabet", () => {
    const secrets = Array.from({ length: 500 }, () => generateSecret("tenantKey"));
    expect(new Set(secrets).size).toBe(500);
    const characters = new Set(secrets.join("").replaceAll("svc_sk_", ""));
    expect(characters.size).toBe(62);
  });

  it("hashes with SHA-256 hex", () => {
    expect(hashSecret("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });

  it("tells the kind of well-formed secrets only", () => {
    expect(secretKind(generateSecret("userToken"))).toBe("userToken");
    expect(secretKind(generateSecret("adminKey"))).toBe("adminKey");
    expect(secretKind("svc_sk_short")).toBeUndefined();
    expect(secretKind(`svc_xx_${"a".repeat(43)}`)).toBeUndefined();
    expect(secretKind(`svc_sk_${"a".repeat(42)}!`)).toBeUndefined();
  });
});
