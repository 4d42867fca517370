// Bundles an app's entry point and the workspace packages it imports (TypeScript source)
// into dist/main.js. Third-party packages stay external and load from node_modules: each
// is imported by the absolute path esbuild resolved it to from the importing package, as
// pnpm's strict layout lets apps/x see only its own direct dependencies. Each dynamic
// `import()` becomes a chunk under dist/chunks/, so what a role never calls (the upload
// parsers in the api role, the API in the etl role) is not even loaded.
//   node ../../tooling/scripts/bundle.ts src/main.ts
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build, type OutputFile, type Plugin } from "esbuild";

const entry = process.argv[2];
if (!entry) throw new Error("usage: bundle.ts <entry>");

const outdir = path.resolve("dist");
const chunkDir = path.join(outdir, "chunks");
// A running process loads its chunks when it first needs them, maybe long after it started:
// a rebuild keeps the chunks it no longer writes until no build has written them for this long.
const STALE_CHUNK_MS = 7 * 24 * 60 * 60 * 1000;

const thirdPartyExternal: Plugin = {
  name: "third-party-external",
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.path.startsWith("@svc/") || args.pluginData === "resolving") return undefined;
      const resolved = await context.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: "resolving",
      });
      if (resolved.errors.length > 0) return { errors: resolved.errors };
      return { path: resolved.path, external: true };
    });
  },
};

const result = await build({
  entryPoints: { main: entry },
  // Written below, each file replaced at once: a process starting dist/main.js while this
  // runs (another `npm run svc`) reads the old file or the new one, never none or half.
  write: false,
  outdir,
  entryNames: "[name]",
  // Named by content: a rebuild never changes a chunk an older dist/main.js imports.
  chunkNames: "chunks/[name]-[hash]",
  splitting: true,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  // Stack traces need only the mappings; the sources would sit in every isolate's memory.
  sourcemap: true,
  sourcesContent: false,
  // dist/main.js is also the CLI's `bin`.
  banner: { js: "#!/usr/bin/env node" },
  logLevel: "warning",
  plugins: [thirdPartyExternal],
});

function replace(file: OutputFile): void {
  mkdirSync(path.dirname(file.path), { recursive: true });
  const temporary = `${file.path}.${process.pid}-${randomUUID()}.tmp`;
  writeFileSync(temporary, file.contents);
  renameSync(temporary, file.path);
}

// The chunks (and each file's source map) before the entry that imports them.
const isEntry = (file: OutputFile) => path.dirname(file.path) === outdir && file.path.endsWith(".js");
for (const file of result.outputFiles.filter((file) => !isEntry(file))) replace(file);
for (const file of result.outputFiles.filter(isEntry)) replace(file);

const written = new Set(result.outputFiles.map((file) => file.path));
const chunks = existsSync(chunkDir) ? readdirSync(chunkDir).map((name) => path.join(chunkDir, name)) : [];
for (const file of chunks) {
  if (!written.has(file) && Date.now() - statSync(file).mtimeMs > STALE_CHUNK_MS) rmSync(file, { force: true });
}
