import { randomBytes } from "node:crypto";
import { link, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { ENCRYPTION_KEY_BYTES, parseEncryptionKey, parseEncryptionKeyList } from "./encryption-key.ts";

export type EncryptionKeys = {
  current: Buffer;
  previous: Buffer[];
  /** Where the current key came from: SVC_ENCRYPTION_KEY, the key file, or a key file created now. */
  source: "env" | "file" | "generated";
};

/** The key file used when SVC_ENCRYPTION_KEY is not set. */
export const ENCRYPTION_KEY_FILE = "encryption.key";

/**
 * The instance's encryption keys. SVC_ENCRYPTION_KEY wins; without it the key is read from
 * `<dataDir>/encryption.key`, which is created once (32 random bytes, base64, mode 0600).
 * Processes starting together agree on one key: the file appears complete or not at all.
 */
export async function loadEncryptionKeys(
  env: { SVC_ENCRYPTION_KEY?: string | undefined; SVC_PREVIOUS_ENCRYPTION_KEYS?: string | undefined },
  dataDir: string,
): Promise<EncryptionKeys> {
  const previous = parseEncryptionKeyList(env.SVC_PREVIOUS_ENCRYPTION_KEYS ?? "", "SVC_PREVIOUS_ENCRYPTION_KEYS");
  if (env.SVC_ENCRYPTION_KEY?.trim()) {
    return { current: parseEncryptionKey(env.SVC_ENCRYPTION_KEY, "SVC_ENCRYPTION_KEY"), previous, source: "env" };
  }
  const file = path.resolve(dataDir, ENCRYPTION_KEY_FILE);
  const existing = await readKeyFile(file);
  if (existing) return { current: existing, previous, source: "file" };

  await mkdir(path.dirname(file), { recursive: true });
  const key = randomBytes(ENCRYPTION_KEY_BYTES);
  // Written whole under a temporary name, then linked into place: link fails with EEXIST
  // when another process won, and nobody ever reads a half-written key file.
  const temporary = `${file}.${randomBytes(8).toString("hex")}.tmp`;
  await writeFile(temporary, `${key.toString("base64")}\n`, { flag: "wx", mode: 0o600, flush: true });
  try {
    await link(temporary, file);
    return { current: key, previous, source: "generated" };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    const winner = await readKeyFile(file);
    if (!winner) throw error;
    return { current: winner, previous, source: "file" };
  } finally {
    await rm(temporary, { force: true });
  }
}

async function readKeyFile(file: string): Promise<Buffer | undefined> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  return parseEncryptionKey(text, `The key file ${file}`);
}
