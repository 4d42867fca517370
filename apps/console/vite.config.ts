import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Built into dist/ and served by the server at /console (apps/server/src/console). Source maps
// are written for debugging but not linked from the bundles.
export default defineConfig({
  base: "/console/",
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: "hidden", chunkSizeWarningLimit: 2000 },
});
