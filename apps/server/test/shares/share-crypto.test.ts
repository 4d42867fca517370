import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { decryptJwe, encryptJwe, hashPasscode, verifyPasscode } from "@svc/core";

describe("JWE (dir, A256GCM)", () => {
  it("round-trips, binds the header, and fails with another key or a changed byte", () => {
    const key = randomBytes(32);
    const jwe = encryptJwe('{"resourceType":"Bundle"}', key, { contentType: "application/fhir+json" });
    const parts = jwe.split(".");
    expect(parts).toHaveLength(5);
    expect(parts[1]).toBe("");
    expect(JSON.parse(Buffer.from(parts[0]!, "base64url").toString())).toEqual({ alg: "dir", enc: "A256GCM", cty: "application/fhir+json" });
    const opened = decryptJwe(jwe, key);
    expect(opened.plaintext.toString()).toBe('{"resourceType":"Bundle"}');
    expect(opened.header.cty).toBe("application/fhir+json");
    expect(encryptJwe("same", key)).not.toBe(encryptJwe("same", key));
    expect(() => decryptJwe(jwe, randomBytes(32))).toThrow();
    const tampered = [parts[0], parts[1], parts[2], `${parts[3]!.startsWith("A") ? "B" : "A"}${parts[3]!.slice(1)}`, parts[4]].join(".");
    expect(() => decryptJwe(tampered, key)).toThrow();
    const otherHeader = [Buffer.from(JSON.stringify({ alg: "dir", enc: "A256GCM" })).toString("base64url"), ...parts.slice(1)].join(".");
    expect(() => decryptJwe(otherHeader, key)).toThrow();
    expect(() => encryptJwe("x", randomBytes(16))).toThrow();
  });

  it("compresses with raw DEFLATE before encrypting when asked (zip DEF), and inflates on decryption", () => {
    const key = randomBytes(32);
    const bundle = JSON.stringify({ resourceType: "Bundle", entry: Array.from({ length: 500 }, (_, i) => ({ resource: { resourceType: "Observation", id: `qs-${i}` } })) });
    const jwe = encryptJwe(bundle, key, { contentType: "application/fhir+json", compress: true });
    const [header, , , ciphertext] = jwe.split(".");
    expect(JSON.parse(Buffer.from(header!, "base64url").toString())).toEqual({ alg: "dir", enc: "A256GCM", zip: "DEF", cty: "application/fhir+json" });
    // GCM adds no padding: the ciphertext is as long as the compressed plaintext.
    expect(Buffer.from(ciphertext!, "base64url").length).toBeLessThan(bundle.length / 10);
    const opened = decryptJwe(jwe, key);
    expect(opened.header.zip).toBe("DEF");
    expect(opened.plaintext.toString()).toBe(bundle);
    expect(decryptJwe(encryptJwe("", key, { compress: true }), key).plaintext.toString()).toBe("");
    const otherZip = [Buffer.from(JSON.stringify({ alg: "dir", enc: "A256GCM", zip: "GZ" })).toString("base64url"), ...jwe.split(".").slice(1)].join(".");
    expect(() => decryptJwe(otherZip, key)).toThrow();
  });
});

describe("passcode hashes", () => {
  it("are salted scrypt hashes that verify only the passcode", async () => {
    const first = await hashPasscode("correct horse");
    const second = await hashPasscode("correct horse");
    expect(first).not.toBe(second);
    expect(first).toMatch(/^scrypt\$/);
    expect(first).not.toContain("correct horse");
    expect(await verifyPasscode("correct horse", first)).toBe(true);
    expect(await verifyPasscode("correct horsE", first)).toBe(false);
    expect(await verifyPasscode("correct horse", "garbage")).toBe(false);
  });
});
