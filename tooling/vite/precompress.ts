// A Vite plugin for the browser apps the server serves (apps/console, apps/share-viewer): after
// the build writes its files, each hashed asset (dist/assets/*) worth compressing gets a brotli
// twin (quality 11) and a gzip twin (level 9) beside it, `index-abc.js.br` and `.gz`. The server
// sends the twin the browser accepts (apps/server/src/pages/built-assets.ts), so compression
// costs nothing per request. Vite's own types are not imported: tooling/ has no node_modules.
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Text formats that shrink; images and fonts Vite emits are compressed already. */
const COMPRESSIBLE = new Set([".js", ".mjs", ".css", ".svg", ".json", ".txt"]);
/** Below this a twin saves less than its headers cost. */
const MIN_BYTES = 1024;

/** Writes `<file>.br` and `<file>.gz` for every compressible asset of the bundle (build only). */
export function precompress() {
  return {
    name: "svc-precompress",
    apply: "build" as const,
    async writeBundle(options: { dir?: string | undefined }, bundle: Record<string, unknown>): Promise<void> {
      const outDir = options.dir;
      if (!outDir) return;
      const files = Object.keys(bundle).filter((name) => name.startsWith("assets/") && COMPRESSIBLE.has(path.extname(name)));
      await Promise.all(files.map((name) => writeTwins(path.join(outDir, name))));
    },
  };
}

async function writeTwins(file: string): Promise<void> {
  const content = await readFile(file);
  if (content.length < MIN_BYTES) return;
  const [br, gz] = await Promise.all([
    brotli(content, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }),
    gzipped(content, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  // A twin that is not smaller is never worth sending.
  if (br.length < content.length) await writeFile(`${file}.br`, br);
  if (gz.length < content.length) await writeFile(`${file}.gz`, gz);
}
