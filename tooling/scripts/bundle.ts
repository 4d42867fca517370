// Bundles an app's entry point and the workspace packages it imports (TypeScript source)
// into dist/main.js. Third-party packages stay external and load from node_modules: each
// is imported by the absolute path esbuild resolved it to from the importing package, as
// pnpm's strict layout lets apps/x see only its own direct dependencies.
//   node ../../tooling/scripts/bundle.ts src/main.ts
import { randomUUID } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";
import { build, type Plugin } from "esbuild";

const entry = process.argv[2];
if (!entry) throw new Error("usage: bundle.ts <entry>");

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
  entryPoints: [entry],
  // Written below, each file replaced at once: a process starting dist/main.js while this
  // runs (another `npm run svc`) reads the old file or the new one, never none or half.
  write: false,
  outfile: "dist/main.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  sourcemap: true,
  // dist/main.js is also the CLI's `bin`.
  banner: { js: "#!/usr/bin/env node" },
  logLevel: "warning",
  plugins: [thirdPartyExternal],
});

for (const file of result.outputFiles) {
  mkdirSync(path.dirname(file.path), { recursive: true });
  const temporary = `${file.path}.${process.pid}-${randomUUID()}.tmp`;
  writeFileSync(temporary, file.contents);
  renameSync(temporary, file.path);
}
