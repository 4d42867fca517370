import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { Transform } from "node:stream";
import { pipeline } from "node:stream/promises";
import { RawObjectTooLarge, type RawStore } from "./raw-store.ts";

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
      const hash = createHash("sha256");
      let byteSize = 0;
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          byteSize += chunk.length;
          if (byteSize > maxBytes) return done(new RawObjectTooLarge(maxBytes));
          hash.update(chunk);
          done(null, chunk);
        },
      });
      try {
        await pipeline(body, count, createWriteStream(file));
      } catch (error) {
        await rm(file, { force: true });
        throw error;
      }
      return { byteSize, sha256: hash.digest("hex") };
    },
    read: (key) => createReadStream(fileOf(key)),
    delete: (key) => rm(fileOf(key), { force: true }),
    async deleteUser(userId) {
      if (!/^[0-9a-f-]{36}$/.test(userId)) throw new Error("not a user id");
      await rm(path.join(root, userId), { recursive: true, force: true });
    },
  };
}
