import { randomBytes } from "node:crypto";
import { mkdtemp, readFile, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  createSealer,
  encryptionKeyId,
  loadEncryptionKeys,
  parseEncryptionKey,
  parseEncryptionKeyList,
  SecretUnsealable,
} from "../src/platform/crypto/index.ts";

const key = () => randomBytes(32);
const SECRET = "whsec_c2VjcmV0LXNpZ25pbmcta2V5LWZvci10ZXN0cw==";

function unsealable(run: () => unknown): SecretUnsealable {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(SecretUnsealable);
    return error as SecretUnsealable;
  }
  throw new Error("expected SecretUnsealable");
}

describe("sealing", () => {
  it("round-trips ascii, unicode and the empty string", () => {
    const sealer = createSealer({ current: key(), previous: [] });
    for (const plaintext of [SECRET, "pässwörd 🔑 秘密", ""]) {
      const sealed = sealer.seal(plaintext);
      expect(sealed).toMatch(/^v1\.[0-9a-f]{16}\.[A-Za-z0-9_-]{80}\.[A-Za-z0-9_-]+$/);
      expect(sealer.open(sealed)).toBe(plaintext);
    }
  });

  it("names the key by the first 16 hex characters of its SHA-256, never the key itself", () => {
    const current = Buffer.alloc(32, 7);
    const sealer = createSealer({ current, previous: [] });
    const sealed = sealer.seal(SECRET);
    expect(sealer.keyId).toBe("4bb06f8e4e3a7715"); // sha256 of 32 bytes of 0x07, computed outside node
    expect(encryptionKeyId(current)).toBe(sealer.keyId);
    expect(sealed.split(".")[1]).toBe(sealer.keyId);
    expect(sealed).not.toContain(current.toString("base64url"));
    expect(sealed).not.toContain(Buffer.from(SECRET).toString("base64url").slice(0, 12));
  });

  it("gives a different sealed string every time", () => {
    const sealer = createSealer({ current: key(), previous: [] });
    const sealed = new Set(Array.from({ length: 50 }, () => sealer.seal(SECRET)));
    expect(sealed.size).toBe(50);
    const wrappedKeys = new Set([...sealed].map((s) => s.split(".")[2]));
    expect(wrappedKeys.size).toBe(50);
  });

  it("refuses any altered character, a truncation or an addition", () => {
    const sealer = createSealer({ current: key(), previous: [] });
    for (const plaintext of [SECRET, "a", "ab", ""]) {
      const sealed = sealer.seal(plaintext);
      for (let index = 0; index < sealed.length; index++) {
        const replacement = sealed[index] === "A" ? "B" : "A";
        const altered = sealed.slice(0, index) + replacement + sealed.slice(index + 1);
        unsealable(() => sealer.open(altered));
      }
      for (const altered of [sealed.slice(0, -1), `${sealed}A`, `${sealed}.`, sealed.replace("v1.", "v2."), ""]) {
        unsealable(() => sealer.open(altered));
      }
    }
  });

  it("refuses a wrapped key moved to another secret's envelope", () => {
    const sealer = createSealer({ current: key(), previous: [] });
    const [v, kid, wrappedA] = sealer.seal("first").split(".");
    const dataB = sealer.seal("second").split(".")[3];
    expect(unsealable(() => sealer.open([v, kid, wrappedA, dataB].join("."))).reason).toBe("corrupt");
  });

  it("opens secrets sealed with a previous key and tells they need resealing", () => {
    const oldKey = key();
    const sealedBefore = createSealer({ current: oldKey, previous: [] }).seal(SECRET);
    const sealer = createSealer({ current: key(), previous: [key(), oldKey] });
    expect(sealer.open(sealedBefore)).toBe(SECRET);
    expect(sealer.needsReseal(sealedBefore)).toBe(true);
    const resealed = sealer.seal(sealer.open(sealedBefore));
    expect(sealer.needsReseal(resealed)).toBe(false);
    expect(sealer.open(resealed)).toBe(SECRET);
  });

  it("after the key changed without the old one: SecretUnsealable saying to rotate, without the secret", () => {
    const oldKey = key();
    const sealedBefore = createSealer({ current: oldKey, previous: [] }).seal(SECRET);
    const sealer = createSealer({ current: key(), previous: [key()] });
    const error = unsealable(() => sealer.open(sealedBefore));
    expect(error.reason).toBe("unknown-key");
    expect(error.keyId).toBe(encryptionKeyId(oldKey));
    expect(error.message).toContain(encryptionKeyId(oldKey));
    expect(error.message).toMatch(/rotate the secret/);
    expect(error.message).not.toContain(SECRET);
    expect(error.message).not.toContain("whsec_");
    expect(sealer.needsReseal(sealedBefore)).toBe(false);
  });

  it("refuses keys that are not 32 bytes", () => {
    expect(() => createSealer({ current: randomBytes(16), previous: [] })).toThrow(/32 bytes/);
    expect(() => createSealer({ current: key(), previous: [randomBytes(31)] })).toThrow(/32 bytes/);
  });
});

describe("encryption key parsing", () => {
  // Bytes chosen so that standard and url-safe base64 differ (+/ versus -_).
  const bytes = Buffer.from(Array.from({ length: 32 }, (_, i) => (i % 2 === 0 ? 0xfb : 0xff)));

  it("reads base64, unpadded base64, base64url and hex, trimming whitespace", () => {
    const standard = bytes.toString("base64");
    expect(standard).toMatch(/[+/]/);
    for (const text of [
      standard,
      standard.replace(/=$/, ""),
      bytes.toString("base64url"),
      `${bytes.toString("base64url")}=`,
      bytes.toString("hex"),
      bytes.toString("hex").toUpperCase(),
      ` ${standard}\n`,
    ]) {
      expect(parseEncryptionKey(text, "SVC_ENCRYPTION_KEY").equals(bytes)).toBe(true);
    }
  });

  it.each([
    ["16 bytes in base64", randomBytes(16).toString("base64")],
    ["33 bytes in base64", randomBytes(33).toString("base64")],
    ["31 bytes in hex", randomBytes(31).toString("hex")],
    ["33 bytes in hex", randomBytes(33).toString("hex")],
    ["a passphrase", "correct horse battery staple, my key!"],
    ["the empty string", ""],
    ["64 characters that are not hex", "z".repeat(64)],
  ])("refuses %s with a message naming the variable and not the value", (_, value) => {
    let message = "";
    try {
      parseEncryptionKey(value, "SVC_ENCRYPTION_KEY");
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^SVC_ENCRYPTION_KEY must be 32 random bytes/);
    if (value !== "") expect(message).not.toContain(value);
  });

  it("reads a comma-separated list and names the bad entry", () => {
    const [a, b] = [key(), key()];
    const list = parseEncryptionKeyList(` ${a.toString("base64")}, ${b.toString("hex")} ,`, "SVC_PREVIOUS_ENCRYPTION_KEYS");
    expect(list.map((k) => k.toString("hex"))).toEqual([a.toString("hex"), b.toString("hex")]);
    expect(parseEncryptionKeyList("", "SVC_PREVIOUS_ENCRYPTION_KEYS")).toEqual([]);
    const bad = "not-a-key";
    expect(() => parseEncryptionKeyList(`${a.toString("base64")},${bad}`, "SVC_PREVIOUS_ENCRYPTION_KEYS")).toThrow(
      /^SVC_PREVIOUS_ENCRYPTION_KEYS \(entry 2 of 2\) must be/,
    );
  });
});

describe("loadEncryptionKeys", () => {
  const dirs: string[] = [];
  const tempDir = async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "svc-keys-"));
    dirs.push(dir);
    return dir;
  };
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it("generates a key file once (mode 0600) and reuses it", async () => {
    const dataDir = path.join(await tempDir(), "not-yet-created");
    const first = await loadEncryptionKeys({}, dataDir);
    expect(first.source).toBe("generated");
    expect(first.current).toHaveLength(32);
    const file = path.join(dataDir, "encryption.key");
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(parseEncryptionKey(await readFile(file, "utf8"), "file").equals(first.current)).toBe(true);

    const second = await loadEncryptionKeys({ SVC_ENCRYPTION_KEY: "  " }, dataDir);
    expect(second.source).toBe("file");
    expect(second.current.equals(first.current)).toBe(true);
    expect(await readdir(dataDir)).toEqual(["encryption.key"]);
  });

  it("agrees on one key when many start together", async () => {
    const dataDir = await tempDir();
    const results = await Promise.all(Array.from({ length: 8 }, () => loadEncryptionKeys({}, dataDir)));
    expect(new Set(results.map((r) => r.current.toString("hex"))).size).toBe(1);
    expect(results.filter((r) => r.source === "generated")).toHaveLength(1);
    expect(await readdir(dataDir)).toEqual(["encryption.key"]);
  });

  it("prefers SVC_ENCRYPTION_KEY and reads the previous keys with either source", async () => {
    const dataDir = await tempDir();
    const [current, old] = [key(), key()];
    const fromEnv = await loadEncryptionKeys(
      { SVC_ENCRYPTION_KEY: current.toString("base64"), SVC_PREVIOUS_ENCRYPTION_KEYS: old.toString("hex") },
      dataDir,
    );
    expect(fromEnv.source).toBe("env");
    expect(fromEnv.current.equals(current)).toBe(true);
    expect(fromEnv.previous.map((k) => k.toString("hex"))).toEqual([old.toString("hex")]);
    expect(await readdir(dataDir)).toEqual([]);

    const fromFile = await loadEncryptionKeys({ SVC_PREVIOUS_ENCRYPTION_KEYS: old.toString("base64url") }, dataDir);
    expect(fromFile.source).toBe("generated");
    expect(fromFile.previous).toHaveLength(1);
  });

  it("refuses a bad SVC_ENCRYPTION_KEY or key file without echoing it", async () => {
    const dataDir = await tempDir();
    const value = "short-secret-value";
    const failure = (run: Promise<unknown>) => run.then(() => new Error("expected a failure"), (e: unknown) => e as Error);
    const envError = await failure(loadEncryptionKeys({ SVC_ENCRYPTION_KEY: value }, dataDir));
    expect(envError.message).toMatch(/^SVC_ENCRYPTION_KEY must be/);
    expect(envError.message).not.toContain(value);
    await writeFile(path.join(dataDir, "encryption.key"), `${value}\n`);
    const error = await failure(loadEncryptionKeys({}, dataDir));
    expect(error.message).toMatch(/^The key file .*encryption\.key must be/);
    expect(error.message).not.toContain(value);
  });
});
