import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";

/**
 * Starts `node <args>` with its standard output and error kept (issue 31: the process tests and
 * e2e specs each wrote this): a test shows the output when the process fails or says why it stopped.
 */
export function spawnWithOutput(
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd?: string,
): { child: ChildProcess; output: () => string } {
  const child = spawn(process.execPath, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    output += chunk;
  });
  return { child, output: () => output };
}

/** A TCP port free on `host` at the time of asking (the OS picks it), for a process a test starts. */
export function freePort(host = "127.0.0.1"): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, host, () => {
      const address = server.address();
      server.close(() =>
        typeof address === "object" && address ? resolve(address.port) : reject(new Error("no port")),
      );
    });
  });
}
