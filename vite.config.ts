import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { CLIENT_ENTRIES, messagesAssetKey } from "./src/client/entries.ts";
import { messagesFor } from "./src/i18n/catalogues.ts";
import { compileMessages } from "./src/i18n/icu-parse.ts";
import { LOCALES } from "./src/i18n/locales.ts";
import { WORKER_ENTRIES } from "./src/server/workers/entries.ts";

/**
 * Issue 11: one content-hashed JSON file per language under /static/ (the server renders with
 * the same `messagesFor`, so the file is exactly what the page was rendered from). The manifest
 * lists each under `messagesAssetKey(locale)`; the browser caches it across pages. Issue 30: each
 * message already parsed (`compileMessages`), so the browser loads no parser.
 */
export function messageCatalogues(): Plugin {
  return {
    name: "podium:message-catalogues",
    buildStart() {
      for (const locale of LOCALES) {
        this.emitFile({
          type: "asset",
          name: `messages-${locale}.json`,
          originalFileName: messagesAssetKey(locale),
          source: JSON.stringify(compileMessages(messagesFor(locale))),
        });
      }
    },
  };
}

/**
 * Issue 30: every page's shell (React, the messages' formatter, hydration, the cookie banner, the
 * usage events) is one chunk, `hydrate`, the browser caches across pages: each module that
 * src/client/hydrate.tsx imports statically, however deep. Left to itself the bundler splits off
 * the parts a lazily loaded part shares with the shell, and each small file compresses worse.
 */
function appShellChunk() {
  let shell: Set<string> | null = null;
  return (moduleId: string, context: { getModuleInfo(id: string): { importedIds: readonly string[] } | null }) => {
    if (!shell) {
      const found = new Set<string>();
      const visit = (id: string) => {
        if (found.has(id)) return;
        found.add(id);
        for (const imported of context.getModuleInfo(id)?.importedIds ?? []) visit(imported);
      };
      visit(`${import.meta.dirname}/src/client/hydrate.tsx`);
      // The pure helpers every page kind uses (lib/), the avatar, the icon, the last-modified date,
      // the kept server markup and the bundler's runtime: a few hundred bytes each, that would
      // otherwise each be a file of its own, or be drawn into the player's chunk (a group takes the
      // modules its own import) and bring that to pages that never play (explore, reading mode).
      const pages = new Set<string>();
      const reach = (id: string) => {
        if (pages.has(id)) return;
        pages.add(id);
        for (const imported of context.getModuleInfo(id)?.importedIds ?? []) reach(imported);
      };
      for (const entry of Object.values(CLIENT_ENTRIES)) reach(`${import.meta.dirname}/${entry}`);
      for (const id of pages) if (SHELL_HELPERS.test(id)) found.add(id);
      shell = found;
    }
    return shell.has(moduleId) ? "hydrate" : null;
  };
}
/**
 * Modules of every page's shell beyond what hydration imports (issue 30). Not lib/card.ts: only the
 * card lists use it (home, explore, search), so it travels in their chunk, not to every view page.
 */
const SHELL_HELPERS =
  /\/src\/(lib\/(?!card\.ts)[^/]+\.ts|ui\/(Avatar|ServerMarkup|Icon|LastModified)\.tsx)$|^\0rolldown\/runtime\.js$/;
/** The player's modules the pages that play load before Present (issue 30). */
const PLAYER_PARTS =
  /\/src\/features\/presentation\/components\/player\/(Player|player-props|CircularProgress|load-viewer)\.tsx?$|\/src\/features\/presentation\/(player-rules|page-data)\.ts$/;

/**
 * Two builds from one config: the browser bundles (one entry per page kind, with a manifest
 * the server reads to link each page to its files, and the message catalogues) and the server
 * bundle (`--ssr`), which renders the same React components.
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: isSsrBuild ? [react()] : [react(), messageCatalogues()],
  build: isSsrBuild
    ? {
        outDir: "dist/server",
        target: "node20",
        emptyOutDir: true,
        sourcemap: true,
        // Chunks beside main.js, so paths relative to a module (../client) hold for all of them.
        rolldownOptions: {
          // The worker threads (server/workers/entries.ts) run from their own files.
          input: {
            main: "src/server/main.ts",
            ...WORKER_ENTRIES,
            // Issue 15: `npm run seed:bulk` (scripts/seed-bulk.mjs).
            "seed-bulk": "src/server/seed/bulk-cli.ts",
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
        rolldownOptions: {
          input: Object.values(CLIENT_ENTRIES),
          output: {
            codeSplitting: {
              groups: [
                { name: appShellChunk(), debugName: "hydrate", priority: 2 },
                // The player's first part (overlays, rules, props) as one file, without the shell it uses.
                { name: "Player", test: PLAYER_PARTS, priority: 1 },
              ],
            },
          },
        },
      },
}));
