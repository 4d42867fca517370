// Bundles an app's entry point and the workspace packages it imports (TypeScript source)
// into dist/main.js. Third-party packages stay external and load from node_modules.
//   node ../../tooling/scripts/bundle.ts src/main.ts
import { rmSync } from "node:fs";
import { build, type Plugin } from "esbuild";

const entry = process.argv[2];
if (!entry) throw new Error("usage: bundle.ts <entry>");

const thirdPartyExternal: Plugin = {
  name: "third-party-external",
  setup(context) {
    context.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith("@svc/") ? undefined : { path: args.path, external: true },
    );
  },
};

rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints: [entry],
  outfile: "dist/main.js",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node22",
  sourcemap: true,
  logLevel: "warning",
  plugins: [thirdPartyExternal],
});
