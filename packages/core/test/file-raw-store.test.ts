import { createHash, randomBytes, randomUUID } from "node:crypto";
import fs, { existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fileRawStore, RawObjectTooLarge, RawStoreUnavailable } from "../src/index.ts";
import { refilledChunks } from "./helpers/refilled-chunks.ts";

const roots: string[] = [];
const newRoot = () => {
  const root = path.join(mkdtempSync(path.join(tmpdir(), "svc-raw-")), "raw");
  roots.push(path.dirname(root));
  return root;
};
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

async function* chunks(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield Buffer.from(part);
}

/** Every path fsynced while `run` runs: fs.fsync's file descriptors resolved through /proc when called. */
async function fsyncedPaths(run: () => Promise<unknown>): Promise<string[]> {
  const synced: string[] = [];
  const fsync = fs.fsync;
  fs.fsync = ((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
    synced.push(readlinkSync(`/proc/self/fd/${fd}`));
    fsync(fd, callback);
  }) as typeof fs.fsync;
  try {
    await run();
  } finally {
    fs.fsync = fsync;
  }
  return synced;
}

describe("the file raw store", () => {
  it("answers a write only once the file, its folder and a folder it created are fsynced", async () => {
    const root = newRoot();
    const store = fileRawStore(root);
    const user = randomUUID();
    const first = `${user}/${randomUUID()}`;
    // The first object of a user: the root and the user's folder are new.
    const synced = await fsyncedPaths(() => store.write(first, chunks("a", "b"), 10));
    expect(synced).toEqual([path.join(root, first), path.join(root, user), root, path.dirname(root)]);
    expect(readFileSync(path.join(root, first), "utf8")).toBe("ab");

    // The user's folder exists: the file and the folder that holds it.
    const second = `${user}/${randomUUID()}`;
    expect(await fsyncedPaths(() => store.write(second, chunks("c"), 10))).toEqual([path.join(root, second), path.join(root, user)]);
  });

  it("is done with each chunk before it asks for the next: a body refilling one buffer is stored whole", async () => {
    const root = newRoot();
    const key = `${randomUUID()}/${randomUUID()}`;
    const body = randomBytes(200_000);
    // Chunks far below a write stream's default highWaterMark, which it would keep and ask on.
    expect(await fileRawStore(root).write(key, refilledChunks(body, 1_000), 1_000_000)).toMatchObject({ byteSize: body.length, sha256: createHash("sha256").update(body).digest("hex") });
    expect(readFileSync(path.join(root, key)).equals(body)).toBe(true);
  });

  it("fails with RawStoreUnavailable naming the error code but no path when the disk is full (ENOSPC), and keeps no file", async () => {
    const root = newRoot();
    const key = `${randomUUID()}/${randomUUID()}`;
    mkdirSync(path.dirname(path.join(root, key)), { recursive: true });
    // /dev/full answers every write with ENOSPC, for root as for anyone.
    symlinkSync("/dev/full", path.join(root, key));
    const error = await fileRawStore(root).write(key, chunks("some bytes"), 100).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RawStoreUnavailable);
    expect(error).toMatchObject({ operation: "write", reason: "ENOSPC (write)" });
    expect(JSON.stringify({ ...(error as object), message: (error as Error).message, cause: (error as Error).cause })).not.toContain(root);
    expect(existsSync(path.join(root, key))).toBe(false);
  });

  it("fails with RawStoreUnavailable when the raw folder cannot hold folders (a file in its place: ENOTDIR)", async () => {
    const root = newRoot();
    mkdirSync(path.dirname(root), { recursive: true });
    writeFileSync(root, "not a folder");
    const error = await fileRawStore(root).write(`${randomUUID()}/${randomUUID()}`, chunks("x"), 100).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RawStoreUnavailable);
    expect((error as RawStoreUnavailable).reason).toMatch(/^ENOTDIR/);
    expect((error as Error).message).not.toContain(root);
  });

  it("passes on an error of reading the body and RawObjectTooLarge as they are, and keeps no file", async () => {
    const root = newRoot();
    const store = fileRawStore(root);
    const broken = Object.assign(new Error("aborted"), { code: "ECONNRESET" });
    async function* body() {
      yield Buffer.from("first bytes");
      throw broken;
    }
    const key = `${randomUUID()}/${randomUUID()}`;
    expect(await store.write(key, body(), 100).catch((e: unknown) => e)).toBe(broken);
    expect(existsSync(path.join(root, key))).toBe(false);
    await expect(store.write(key, chunks("12345", "678"), 6)).rejects.toBeInstanceOf(RawObjectTooLarge);
    expect(existsSync(path.join(root, key))).toBe(false);
  });
});
