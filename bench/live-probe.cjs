// bench:live's probe inside the server (loaded with --require by bench/live.mjs only): on SIGUSR2
// the server's memory after two full garbage collections, written to $LIVE_PROBE_FILE.<pid>.
const { isMainThread } = require("node:worker_threads");
const { writeFileSync } = require("node:fs");
const v8 = require("node:v8");
const vm = require("node:vm");

if (isMainThread && process.env.LIVE_PROBE_FILE) {
  v8.setFlagsFromString("--expose-gc");
  const gc = vm.runInNewContext("gc");
  process.on("SIGUSR2", () => {
    gc();
    gc();
    writeFileSync(`${process.env.LIVE_PROBE_FILE}.${process.pid}`, JSON.stringify(process.memoryUsage()));
  });
}
