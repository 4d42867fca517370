/**
 * yaml's stringify, in a module of ours that openapi-yaml.ts imports at its first call. yaml is
 * CommonJS, and a bundle split at dynamic imports (the release, tooling/scripts/release.ts) gives
 * an `import("yaml")` only a default export (evanw/esbuild#3245); an ES module re-exporting it
 * keeps the named export.
 */
export { stringify } from "yaml";
