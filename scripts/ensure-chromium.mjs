// End-to-end tests need Debian's Chromium. Install it when we can (root with apt-get);
// otherwise say how. Never skip the browser tests.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

export function ensureChromium() {
  if (existsSync(CHROMIUM_PATH)) return { ok: true };
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const hasApt = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  if (isRoot && hasApt && !process.env.CHROMIUM_PATH) {
    console.log("podium: Chromium is missing; installing Debian's chromium package…");
    try {
      execFileSync("apt-get", ["update", "-qq"], { stdio: "inherit" });
      execFileSync("apt-get", ["install", "-y", "-qq", "chromium"], {
        stdio: "inherit",
        env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      });
    } catch (error) {
      return { ok: false, message: `installing chromium with apt-get failed: ${error.message}` };
    }
    if (existsSync(CHROMIUM_PATH)) return { ok: true };
  }
  return {
    ok: false,
    message: `Chromium was not found at ${CHROMIUM_PATH}. Install Debian's package (as root: apt-get update && apt-get install -y chromium), or set CHROMIUM_PATH to a Chromium binary.`,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = ensureChromium();
  if (!result.ok) {
    console.error(`podium: ${result.message}`);
    process.exit(1);
  }
  console.log(`podium: Chromium at ${CHROMIUM_PATH}`);
}
