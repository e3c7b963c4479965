// `npm start`: builds if the build is missing or older than the sources, then serves Podium.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { sourceStamp } from "./source-stamp.mjs";

const stampFile = "dist/.source-stamp";
const current = existsSync(stampFile) && existsSync("dist/server/main.js") ? readFileSync(stampFile, "utf8") : null;
if (current !== sourceStamp()) {
  console.log("podium: building (first start, or the sources changed)…");
  execFileSync(process.execPath, ["scripts/build.mjs"], { stdio: "inherit" });
}
await import("../dist/server/main.js");
