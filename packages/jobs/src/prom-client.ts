/**
 * prom-client, in a module of ours that the metric recorders import when a process keeps
 * metrics (never before: prom-client adds about 20 MB to each thread at rest). prom-client is
 * CommonJS, and a bundle split at dynamic imports (the release) gives an `import("prom-client")`
 * only a default export (evanw/esbuild#3245); an ES module re-exporting it keeps the named ones.
 */
export { Histogram } from "prom-client";
