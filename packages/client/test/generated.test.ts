// The committed src/generated/ files are what the generate script writes from this build's
// router and event catalog: a route or event changed without regenerating fails here.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { generatedFiles } from "../scripts/generated-files.ts";

describe("src/generated", () => {
  it("equals a fresh run of scripts/generate-openapi-types.ts", async () => {
    const fresh = await generatedFiles();
    expect(Object.keys(fresh).sort()).toEqual(["events.ts", "idempotent-operations.ts", "openapi.ts"]);
    for (const [file, text] of Object.entries(fresh)) {
      const committed = readFileSync(new URL(`../src/generated/${file}`, import.meta.url), "utf8");
      expect(committed === text, `src/generated/${file} is stale: run node packages/client/scripts/generate-openapi-types.ts`).toBe(true);
    }
  });
});
