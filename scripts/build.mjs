// Builds the browser bundles and the server bundle, then stamps the sources they came from,
// so `npm start` can tell whether a build is current.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { sourceStamp } from "./source-stamp.mjs";

const vite = ["node_modules/vite/bin/vite.js"];
execFileSync(process.execPath, [...vite, "build", "--logLevel", "warn"], { stdio: "inherit" });
execFileSync(process.execPath, [...vite, "build", "--ssr", "--logLevel", "warn"], { stdio: "inherit" });
writeFileSync("dist/.source-stamp", sourceStamp());
console.log("podium: build complete");
