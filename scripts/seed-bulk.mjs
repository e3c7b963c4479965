// `npm run seed:bulk -- --count N [--run-id ID] [--remove] [--database URL]` (issue 15 item 1):
// builds if the build is missing or older than the sources (as `npm start`), then runs the
// bulk seed from the server bundle (src/server/seed/bulk-cli.ts).
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { sourceStamp } from "./source-stamp.mjs";

const stampFile = "dist/.source-stamp";
const current =
  existsSync(stampFile) && existsSync("dist/server/seed-bulk.js") ? readFileSync(stampFile, "utf8") : null;
if (current !== sourceStamp()) {
  console.log("seed:bulk: building (first run, or the sources changed)…");
  execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
}
await import("../dist/server/seed-bulk.js");
