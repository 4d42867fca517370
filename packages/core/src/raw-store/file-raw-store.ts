import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { measuredBody } from "./measured-body.ts";
import type { RawStore } from "./raw-store.ts";

const KEY = /^[0-9a-f-]{36}\/[0-9a-f-]{36}$/;

/** Raw objects as files under one root folder: `<root>/<user id>/<raw object id>`. */
export function fileRawStore(root: string): RawStore {
  const fileOf = (key: string) => {
    if (!KEY.test(key)) throw new Error("raw object keys are <user id>/<raw object id>");
    return path.join(root, key);
  };
  return {
    async write(key, body, maxBytes) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      const measured = measuredBody(maxBytes);
      try {
        await pipeline(body, measured.stream, createWriteStream(file));
      } catch (error) {
        await rm(file, { force: true });
        throw error;
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
    delete: (key) => rm(fileOf(key), { force: true }),
    async deleteUser(userId) {
      if (!/^[0-9a-f-]{36}$/.test(userId)) throw new Error("not a user id");
      await rm(path.join(root, userId), { recursive: true, force: true });
    },
  };
}
