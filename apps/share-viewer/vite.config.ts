import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompress } from "../../tooling/vite/precompress.ts";

// Built into dist/ and served by the server at /share (apps/server/src/share-viewer), each hashed
// asset with brotli and gzip twins the server sends by Accept-Encoding. No source maps unless
// SVC_SOURCEMAPS=true at build time (then hidden: not linked; the server never serves them).
export default defineConfig({
  base: "/share/",
  plugins: [react(), precompress()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: process.env.SVC_SOURCEMAPS === "true" ? "hidden" : false, chunkSizeWarningLimit: 2000 },
});
