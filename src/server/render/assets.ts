import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CLIENT_ENTRIES, type ClientEntry } from "../../client/entries";

/** What one page links to: its entry script, its styles and the chunks to preload. */
export interface EntryAssets {
  script: string;
  styles: string[];
  preloads: string[];
}

export type AssetLookup = (entry: ClientEntry) => EntryAssets | null;

interface ManifestChunk {
  file: string;
  css?: string[];
  imports?: string[];
  isEntry?: boolean;
}

/** Reads Vite's manifest of the client build; without one, pages render with no scripts. */
export function loadClientAssets(clientDir: string | null): AssetLookup {
  const manifestPath = clientDir ? join(clientDir, ".vite", "manifest.json") : null;
  if (!manifestPath || !existsSync(manifestPath)) return () => null;
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, ManifestChunk>;
  const cache = new Map<ClientEntry, EntryAssets | null>();
  return (entry) => {
    if (cache.has(entry)) return cache.get(entry) ?? null;
    const chunk = manifest[CLIENT_ENTRIES[entry]];
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
      visit(CLIENT_ENTRIES[entry], true);
      assets = { script: `/${chunk.file}`, styles: [...styles], preloads: [...preloads] };
    }
    cache.set(entry, assets);
    return assets;
  };
}
