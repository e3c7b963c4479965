import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CLIENT_ENTRIES, type ClientEntry, messagesAssetKey } from "../../client/entries";
import type { Locale } from "../../i18n/locales";

/** What one page links to: its entry script, its styles and the chunks to preload. */
export interface EntryAssets {
  script: string;
  styles: string[];
  preloads: string[];
}

/** The client build's files, as pages link them. */
export interface ClientAssets {
  /** A page kind's entry script, styles and chunks; null without a client build. */
  entry(entry: ClientEntry): EntryAssets | null;
  /** The URL of a language's message catalogue (issue 11); null without a client build. */
  messages(locale: Locale): string | null;
}

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}

const NO_CLIENT_BUILD: ClientAssets = { entry: () => null, messages: () => null };

/** Reads Vite's manifest of the client build; without one, pages render with no scripts. */
export function loadClientAssets(clientDir: string | null): ClientAssets {
  const manifestPath = clientDir ? join(clientDir, ".vite", "manifest.json") : null;
  if (!manifestPath || !existsSync(manifestPath)) return NO_CLIENT_BUILD;
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, ManifestChunk>;
  const cache = new Map<ClientEntry, EntryAssets | null>();
  const entry = (name: ClientEntry): EntryAssets | null => {
    if (cache.has(name)) return cache.get(name) ?? null;
    const chunk = manifest[CLIENT_ENTRIES[name]];
    let assets: EntryAssets | null = null;
    if (chunk) {
      const styles = new Set<string>();
      const preloads = new Set<string>();
      const seen = new Set<string>();
      const visit = (key: string, isRoot: boolean) => {
        if (seen.has(key)) return;
        seen.add(key);
        const current = manifest[key];
        if (!current) return;
        for (const css of current.css ?? []) styles.add(`/${css}`);
        if (!isRoot) preloads.add(`/${current.file}`);
        for (const imported of current.imports ?? []) visit(imported, false);
      };
      visit(CLIENT_ENTRIES[name], true);
      assets = { script: `/${chunk.file}`, styles: [...styles], preloads: [...preloads] };
    }
    cache.set(name, assets);
    return assets;
  };
  const messages = (locale: Locale): string | null => {
    const file = manifest[messagesAssetKey(locale)]?.file;
    return file ? `/${file}` : null;
  };
  return { entry, messages };
}
