import { describe, expect, it } from "vitest";
import { encryptJwe } from "../../../packages/core/src/platform/crypto/jwe.ts";
import { shlinkOf } from "../../../packages/core/src/sharing/share-link.ts";
import { decryptJwe } from "../src/crypto/jwe-decrypt.ts";
import { linkExpired, parseShlink } from "../src/link/shlink.ts";

const key = new Uint8Array(32).map((_, i) => i * 7 + 1);
const keyText = Buffer.from(key).toString("base64url");
const payload = { url: "https://svc.example/share/7b0f3c3e-6f0a-4c37-9d2b-0d7f1f4b2a11/manifest", key: keyText, exp: 2_000_000_000, flag: "P", label: "For Dr. Lee", v: 1 as const };

describe("share link parsing", () => {
  it("reads the payload of a viewer URL's fragment, a hash and a bare shlink", () => {
    const shlink = shlinkOf(payload);
    for (const text of [`https://svc.example/share#${shlink}`, `#${shlink}`, shlink]) {
      const parsed = parseShlink(text);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) continue;
      expect(parsed.link).toMatchObject({ url: payload.url, exp: payload.exp, passcode: true, label: "For Dr. Lee" });
      expect([...parsed.link.key]).toEqual([...key]);
    }
  });

  it("needs no passcode without the P flag and knows when a link expired", () => {
    const parsed = parseShlink(shlinkOf({ ...payload, flag: undefined, exp: 1_000 }));
    expect(parsed.ok && parsed.link.passcode).toBe(false);
    expect(parsed.ok && linkExpired(parsed.link)).toBe(true);
    const current = parseShlink(shlinkOf(payload));
    expect(current.ok && linkExpired(current.link, 1_999_999_999_000)).toBe(false);
  });

  it("refuses what is not a usable link, with a reason", () => {
    const encode = (value: unknown) => `#shlink:/${Buffer.from(JSON.stringify(value)).toString("base64url")}`;
    const bad = [
      "",
      "#something-else",
      "#shlink:/not*base64",
      "#shlink:/" + Buffer.from("not json").toString("base64url"),
      encode([1, 2]),
      encode({ ...payload, url: "javascript:alert(1)" }),
      encode({ ...payload, url: undefined }),
      encode({ ...payload, key: keyText.slice(0, 20) }),
      encode({ ...payload, key: 42 }),
      encode({ ...payload, v: 2 }),
      encode({ ...payload, flag: "U" }),
    ];
    for (const text of bad) {
      const parsed = parseShlink(text);
      expect(parsed.ok, text).toBe(false);
      if (!parsed.ok) expect(parsed.reason).toMatch(/share link|address/);
    }
  });
});

describe("JWE decryption (WebCrypto) of files the server encrypts", () => {
  it("opens encryptJwe's output, with and without a content type", async () => {
    const bundle = JSON.stringify({ resourceType: "Bundle", type: "collection", entry: [{ resource: { resourceType: "Observation", note: "é ✓" } }] });
    expect(await decryptJwe(encryptJwe(bundle, key, { contentType: "application/fhir+json" }), key)).toBe(bundle);
    expect(await decryptJwe(encryptJwe("", key), key)).toBe("");
  });

  it("inflates a compressed file (zip DEF) after decrypting it, and says so", async () => {
    const bundle = JSON.stringify({ resourceType: "Bundle", type: "collection", entry: Array.from({ length: 300 }, (_, i) => ({ resource: { resourceType: "Observation", id: `qs-${i}`, note: "é ✓" } })) });
    const stages: string[] = [];
    expect(await decryptJwe(encryptJwe(bundle, key, { contentType: "application/fhir+json", compress: true }), key, () => stages.push("inflate"))).toBe(bundle);
    expect(stages).toEqual(["inflate"]);
    // Files made before compression (no zip) still open, without inflating.
    expect(await decryptJwe(encryptJwe(bundle, key), key, () => stages.push("inflate"))).toBe(bundle);
    expect(stages).toEqual(["inflate"]);
    const [, , iv, ciphertext, tag] = encryptJwe(bundle, key, { compress: true }).split(".") as [string, string, string, string, string];
    const gzipHeader = Buffer.from(JSON.stringify({ alg: "dir", enc: "A256GCM", zip: "GZ" })).toString("base64url");
    await expect(decryptJwe([gzipHeader, "", iv, ciphertext, tag].join("."), key)).rejects.toThrow("unsupported JWE compression");
  });

  it("fails with another key, a changed header or a changed ciphertext", async () => {
    const jwe = encryptJwe("secret", key);
    const other = new Uint8Array(32).fill(9);
    await expect(decryptJwe(jwe, other)).rejects.toThrow();
    const [header, , iv, ciphertext, tag] = jwe.split(".") as [string, string, string, string, string];
    const otherHeader = Buffer.from(JSON.stringify({ alg: "dir", enc: "A256GCM", cty: "x" })).toString("base64url");
    await expect(decryptJwe([otherHeader, "", iv, ciphertext, tag].join("."), key)).rejects.toThrow();
    const flipped = Buffer.from(ciphertext, "base64url");
    flipped[0]! ^= 1;
    await expect(decryptJwe([header, "", iv, flipped.toString("base64url"), tag].join("."), key)).rejects.toThrow();
    await expect(decryptJwe("a.b.c", key)).rejects.toThrow("not a compact JWE");
  });
});
