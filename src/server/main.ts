/**
 * Podium's entry point. React (and the libraries around it) pick their production or
 * development build when first imported, from NODE_ENV: set it before anything imports them.
 */
process.env.NODE_ENV ??= "production";

/**
 * Issue 27, item 5: glibc's malloc raises its mmap threshold (up to 32 MB) each time a large
 * block is freed, so libvips' and PGlite's later large blocks come from heaps it never gives back:
 * after six 50 MP uploads a process kept 140 MB more than before them. A fixed threshold of
 * 128 KiB keeps large blocks in mappings of their own, returned when freed (bench:memory). glibc
 * reads it only at start, so where Node can replace its own process (process.execve, Node ≥
 * 22.15) Podium starts again with it set; elsewhere set it in the environment (README).
 */
const MALLOC_TUNING = { MALLOC_MMAP_THRESHOLD_: "131072" };
type Execve = (file: string, args: string[], env: Record<string, string | undefined>) => never;
const execve = (process as unknown as { execve?: Execve }).execve;
if (process.platform === "linux" && execve && Object.keys(MALLOC_TUNING).every((name) => !(name in process.env))) {
  execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], {
    ...process.env,
    ...MALLOC_TUNING,
  });
}

await import("./serve");

export {};
