// Writes the generated part of docs/reference/: openapi.yaml (the document GET /openapi.yaml
// serves), its Markdown rendering under api/, catalog.md and events.md. Run after changing a
// route, the catalog or an event (test/reference-files.test.ts fails until then):
//   npm run docs:openapi
import { mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { referenceFiles } from "./reference-files.ts";
import { REFERENCE_DIR } from "./regenerate.ts";

const root = fileURLToPath(new URL("../../", import.meta.url));
const files = await referenceFiles();
const apiDir = path.join(root, REFERENCE_DIR, "api");
mkdirSync(apiDir, { recursive: true });
// A page of a tag that is gone is removed with it.
for (const name of readdirSync(apiDir)) if (!(`api/${name}` in files)) rmSync(path.join(apiDir, name));
for (const [file, text] of Object.entries(files)) {
  writeFileSync(path.join(root, REFERENCE_DIR, file), text);
  console.log(`wrote ${REFERENCE_DIR}/${file}`);
}
