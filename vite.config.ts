import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { CLIENT_ENTRIES } from "./src/client/entries.ts";

/**
 * Two builds from one config: the browser bundles (one entry per page kind, with a manifest
 * the server reads to link each page to its files) and the server bundle (`--ssr`), which
 * renders the same React components.
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react()],
  build: isSsrBuild
    ? {
        outDir: "dist/server",
        target: "node20",
        emptyOutDir: true,
        sourcemap: true,
        // Chunks beside main.js, so paths relative to a module (../client) hold for all of them.
        rolldownOptions: {
          // The document and PDF workers (server/workers) run in their own threads, from their own files.
          input: {
            main: "src/server/main.ts",
            "document-worker": "src/server/workers/document-worker.ts",
            "pdf-worker": "src/server/workers/pdf-worker.ts",
          },
          output: { chunkFileNames: "[name]-[hash].js" },
        },
      }
    : {
        outDir: "dist/client",
        // Served under /static/: /assets/ is left to presentation images.
        assetsDir: "static",
        manifest: true,
        emptyOutDir: true,
        target: "es2022",
        rolldownOptions: { input: Object.values(CLIENT_ENTRIES) },
      },
}));
