// The published build of @svc/client (`turbo run build`): src/index.ts as one ES module and
// one bundled .d.ts under dist/, for Node 20+ and browsers. Its dependencies stay imports (npm
// installs them); the generated OpenAPI and event types are inlined into the .d.ts. The tRPC
// entry (trpc-client.ts) is workspace-only and not built. scripts/write-dist-manifest.ts then
// writes dist/package.json and refuses imports of Node built-ins and workspace packages.
import { defineConfig } from "tsdown";

export default defineConfig({
  entry: { index: "src/index.ts" },
  outDir: "dist",
  clean: true,
  format: "esm",
  // Neither Node nor a browser: no Node shims, and the .js/.d.ts names of a "type": "module" package.
  platform: "neutral",
  // Node 20 and the browsers of its time.
  target: "es2022",
  dts: true,
  // Nothing from node_modules is copied in: every package the build uses is a dependency npm installs.
  deps: { onlyBundle: [] },
});
