import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// Built into dist/ and served by the server at /console (apps/server/src/console).
export default defineConfig({
  base: "/console/",
  plugins: [react()],
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true, chunkSizeWarningLimit: 2000 },
});
