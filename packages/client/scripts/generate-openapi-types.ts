// Writes src/generated/: the REST types from the OpenAPI document the server serves, the
// event payload types from the core event catalog, and the operations that honour
// Idempotency-Key. Run after changing a route or an event:
//   node packages/client/scripts/generate-openapi-types.ts
// test/generated.test.ts fails while the committed files differ from a fresh run.
import { writeFileSync } from "node:fs";
import { generatedFiles } from "./generated-files.ts";

for (const [file, text] of Object.entries(await generatedFiles())) {
  writeFileSync(new URL(`../src/generated/${file}`, import.meta.url), text);
  console.log(`wrote src/generated/${file}`);
}
