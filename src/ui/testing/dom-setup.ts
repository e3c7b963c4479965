/**
 * Vitest setup of every test file (vitest.config.ts). Issue 29 item 5: in the DOM tests,
 * Testing Library's `findBy…` and `waitFor` wait for their condition up to 15 s instead of 1 s.
 * A part that loads on demand (a modal's chunk, a part loaded where shown) is transformed by Vite
 * on first import, which took over a second on a busy machine; a condition met sooner ends the
 * wait sooner, so a passing run is not slower.
 */
if (typeof document !== "undefined") {
  const { configure } = await import("@testing-library/react");
  configure({ asyncUtilTimeout: 15_000 });
}

export {};
