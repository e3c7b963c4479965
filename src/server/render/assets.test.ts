import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { messageCatalogues } from "../../../vite.config";
import { CLIENT_ENTRIES, messagesAssetKey } from "../../client/entries";
import { messagesFor } from "../../i18n/catalogues";
import { compileMessages } from "../../i18n/icu-parse";
import { LOCALES } from "../../i18n/locales";
import { loadClientAssets } from "./assets";

const dir = mkdtempSync(join(tmpdir(), "podium-assets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function clientBuild(manifest: Record<string, unknown>): string {
  const clientDir = mkdtempSync(join(dir, "client-"));
  mkdirSync(join(clientDir, ".vite"));
  writeFileSync(join(clientDir, ".vite", "manifest.json"), JSON.stringify(manifest));
  return clientDir;
}

describe("issue 11: the client build's message catalogues", () => {
  it("the build writes each language's catalogue, exactly what the server renders with (compiled), under the manifest key the server reads", () => {
    const emitted: { name?: string; originalFileName?: string; source?: string }[] = [];
    const plugin = messageCatalogues();
    const buildStart = plugin.buildStart as (this: unknown) => void;
    buildStart.call({ emitFile: (file: (typeof emitted)[number]) => emitted.push(file) });
    expect(emitted.map((file) => file.originalFileName)).toEqual(LOCALES.map(messagesAssetKey));
    for (const [index, locale] of LOCALES.entries()) {
      expect(emitted[index]?.name).toBe(`messages-${locale}.json`);
      expect(JSON.parse(emitted[index]?.source ?? "")).toEqual(compileMessages(messagesFor(locale)));
    }
  });

  it("the server finds each language's file in the manifest, and an entry's script, styles and chunks", () => {
    const assets = loadClientAssets(
      clientBuild({
        [CLIENT_ENTRIES.home]: { file: "static/home-1.js", isEntry: true, css: ["static/home-1.css"], imports: ["_a"] },
        _a: { file: "static/a-2.js", css: ["static/a-2.css"] },
        [messagesAssetKey("de")]: { file: "static/messages-de-3.json", src: messagesAssetKey("de") },
        [messagesAssetKey("en")]: { file: "static/messages-en-4.json", src: messagesAssetKey("en") },
      }),
    );
    expect(assets.messages("de")).toBe("/static/messages-de-3.json");
    expect(assets.messages("en")).toBe("/static/messages-en-4.json");
    // A build without a language's file links none (the page then stays as rendered, and says so).
    expect(assets.messages("ko")).toBeNull();
    expect(assets.entry("home")).toEqual({
      script: "/static/home-1.js",
      styles: ["/static/home-1.css", "/static/a-2.css"],
      preloads: ["/static/a-2.js"],
    });
    expect(assets.entry("editor")).toBeNull();
  });

  it("without a client build, nothing is linked", () => {
    for (const assets of [loadClientAssets(null), loadClientAssets(join(dir, "missing"))]) {
      expect(assets.entry("home")).toBeNull();
      expect(assets.messages("en")).toBeNull();
    }
  });
});
