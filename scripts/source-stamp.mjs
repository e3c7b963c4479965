// A hash of everything a build is made from: when it changes, the build is stale.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const INPUTS = ["src", "vite.config.ts", "package-lock.json", "tsconfig.json"];

function* files(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isFile()) {
    yield path;
    return;
  }
  for (const name of readdirSync(path).sort()) {
    if (name.endsWith(".test.ts") || name.endsWith(".test.tsx")) continue;
    yield* files(join(path, name));
  }
}

export function sourceStamp() {
  const hash = createHash("sha256");
  for (const input of INPUTS) {
    for (const file of files(input)) {
      hash.update(file);
      hash.update("\0");
      hash.update(readFileSync(file));
      hash.update("\0");
    }
  }
  return hash.digest("hex");
}
