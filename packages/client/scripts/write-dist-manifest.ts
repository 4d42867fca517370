// Writes dist/package.json, the manifest of the published @svc/client, after tsdown built
// dist/ (`"build": "tsdown && node scripts/write-dist-manifest.ts"`); `npm pack dist` then
// makes the tarball. Its dependencies are the packages the built files import, at the
// versions installed here (as ^ ranges), so the packed form has no workspace: or catalog:
// versions. A built file that imports a workspace package (@svc/…), a Node built-in (the
// package runs in browsers too) or a package that is not in dependencies fails the build.
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { isBuiltin } from "node:module";

const root = new URL("../", import.meta.url);
const dist = new URL("dist/", root);
const readJson = (url: URL) => JSON.parse(readFileSync(url, "utf8")) as Record<string, unknown>;

const source = readJson(new URL("package.json", root)) as { version: string; dependencies: Record<string, string> };

/** `import … from "x"`, `export … from "x"` and `import "x"` statements, and `import("x")` type references. */
const IMPORTS = [
  /^\s*(?:import|export)\s[\w$*{},\s]*?\sfrom\s*["']([^"']+)["']/gm,
  /^\s*import\s*["']([^"']+)["']/gm,
  /\bimport\(\s*["']([^"']+)["']\s*\)/g,
];

const packageName = (specifier: string) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");

function importedPackages(): Set<string> {
  const names = new Set<string>();
  for (const file of readdirSync(dist).filter((name) => /\.(js|d\.ts)$/.test(name))) {
    const text = readFileSync(new URL(file, dist), "utf8");
    for (const pattern of IMPORTS) {
      for (const [, specifier] of text.matchAll(pattern)) {
        if (specifier === undefined || specifier.startsWith(".")) continue;
        if (isBuiltin(specifier)) throw new Error(`dist/${file} imports the Node built-in ${specifier}: the package must run in browsers too.`);
        names.add(packageName(specifier));
      }
    }
  }
  return names;
}

const dependencies: Record<string, string> = {};
for (const name of [...importedPackages()].sort()) {
  if (name.startsWith("@svc/")) throw new Error(`The build imports the workspace package ${name}, which is not published.`);
  if (source.dependencies[name] === undefined) throw new Error(`The build imports ${name}, which is not in the dependencies of @svc/client.`);
  const installed = readJson(new URL(`node_modules/${name}/package.json`, root)) as { version: string };
  dependencies[name] = `^${installed.version}`;
}

const manifest = {
  name: "@svc/client",
  version: source.version,
  description: "Typed client of svc's REST API (/v1), with pagination, retries, uploads and webhook verification. Node 20+ and browsers.",
  license: "Apache-2.0",
  type: "module",
  exports: {
    ".": { types: "./index.d.ts", default: "./index.js" },
    "./package.json": "./package.json",
  },
  types: "./index.d.ts",
  sideEffects: false,
  engines: { node: ">=20" },
  dependencies,
};
writeFileSync(new URL("package.json", dist), `${JSON.stringify(manifest, null, 2)}\n`);
copyFileSync(new URL("README.md", root), new URL("README.md", dist));
console.log(`wrote dist/package.json (dependencies: ${Object.keys(dependencies).join(", ") || "none"})`);
