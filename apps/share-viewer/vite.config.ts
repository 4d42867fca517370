import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Built into dist/ and served by the server at /share (apps/server/src/share-viewer). Source
// maps are written for debugging but not linked from the bundles.
export default defineConfig({
  base: "/share/",
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: "hidden", chunkSizeWarningLimit: 2000 },
});
