// The generated files of docs/reference/ (openapi.yaml, api/, catalog.md, events.md) are what
// `npm run docs:openapi` writes from this build: a route, a catalog type or an event changed
// without regenerating them fails here.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { referenceFiles } from "../reference-files.ts";
import { REFERENCE_DIR, REGENERATE } from "../regenerate.ts";

const referenceDir = path.join(fileURLToPath(new URL("../../../", import.meta.url)), REFERENCE_DIR);

describe("generated files of docs/reference", () => {
  it("equal a fresh run of the generator", async () => {
    const fresh = await referenceFiles();
    const committedApiPages = readdirSync(path.join(referenceDir, "api")).map((name) => `api/${name}`);
    const stale = [
      ...Object.entries(fresh)
        .filter(([file, text]) => !existsSync(path.join(referenceDir, file)) || readFileSync(path.join(referenceDir, file), "utf8") !== text)
        .map(([file]) => file),
      ...committedApiPages.filter((file) => !(file in fresh)),
    ];
    expect(stale, `${REFERENCE_DIR}/ ${stale.join(", ")} differ from this build: run ${REGENERATE}`).toEqual([]);
  }, 60_000);
});
