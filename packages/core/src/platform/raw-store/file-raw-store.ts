import fs, { createReadStream, createWriteStream } from "node:fs";
import { mkdir, open, rm } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { measuredBody } from "./measured-body.ts";
import { asRawStoreFault, RAW_STORE_KEY, RAW_STORE_KEY_ERROR, type RawStore } from "./raw-store.ts";


/**
 * Raw objects as files under one root folder: `<root>/<user id>/<raw object id>`. A write
 * resolves once the file and the folder entries that lead to it are fsynced: the upload's
 * row, committed next, never names bytes a power loss can take away.
 */
export function fileRawStore(root: string): RawStore {
  const fileOf = (key: string) => {
    if (!RAW_STORE_KEY.test(key)) throw new Error(RAW_STORE_KEY_ERROR);
    return path.join(root, key);
  };
  return {
    async write(key, body, maxBytes) {
      const file = fileOf(key);
      const measured = measuredBody(body, maxBytes);
      try {
        const created = await mkdir(path.dirname(file), { recursive: true });
        // Opened before a byte of the body is read: a folder it may not write, a read-only
        // disk fail here, and the caller can still answer a client that is sending.
        const fd = await promisify(fs.open)(file, "w");
        // flush: the stream fsyncs the file before it closes it. highWaterMark 0: each chunk is
        // written before the next is asked for (RawStore.write's promise).
        await pipeline(measured.chunks, createWriteStream(file, { fd, flush: true, highWaterMark: 0 }));
        await syncFolders(path.dirname(file), created);
      } catch (error) {
        await rm(file, { force: true }).catch(() => undefined);
        throw measured.isBodyError(error) ? error : asRawStoreFault("write", error);
      }
      return measured.result();
    },
    read: (key) => createReadStream(fileOf(key)),
    readRange(key, start, endExclusive) {
      const file = fileOf(key);
      // createReadStream's end is inclusive, and an empty range has no inclusive end.
      if (endExclusive <= start) return (async function* () {})();
      return createReadStream(file, { start, end: endExclusive - 1 });
    },
    async delete(key) {
      const file = fileOf(key);
      await rm(file, { force: true }).catch((error: unknown) => {
        // A folder on the way is not one: the file cannot be there.
        if ((error as { code?: unknown }).code === "ENOTDIR") return;
        throw asRawStoreFault("delete", error);
      });
    },
    async deleteUser(userId) {
      if (!/^[0-9a-f-]{36}$/.test(userId)) throw new Error("not a user id");
      await rm(path.join(root, userId), { recursive: true, force: true }).catch((error: unknown) => {
        throw asRawStoreFault("delete", error);
      });
    },
  };
}

/**
 * fsyncs the folder a file was just written into, and, when mkdir created folders on the way
 * (`firstCreated`, the topmost), the parent of each of them: their entries are new as well.
 */
async function syncFolders(folder: string, firstCreated: string | undefined): Promise<void> {
  await syncFolder(folder);
  if (firstCreated === undefined) return;
  for (let created = folder; ; created = path.dirname(created)) {
    const parent = path.dirname(created);
    await syncFolder(parent);
    if (created === firstCreated || parent === created) return;
  }
}

async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, "r");
  try {
    // fs.fsync of the module, as the write stream's flush calls it (one place to watch in tests).
    await promisify(fs.fsync)(handle.fd);
  } finally {
    await handle.close();
  }
}
