import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ISOLATED_FILES } from "../../../vitest.config";

/** Every test file under src/ and scripts/. */
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

describe("issue 29: test files share loaded modules, except those that must start from nothing", () => {
  it("every file that mocks a module runs on its own (vitest.config.ts ISOLATED_FILES), and every listed file exists", () => {
    const files = [...testFiles("src"), ...testFiles("scripts")];
    const mocking = files.filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(file, "utf8")));
    expect(mocking.length).toBeGreaterThan(0);
    for (const file of mocking) expect(ISOLATED_FILES, `${file} mocks a module`).toContain(file);
    for (const file of ISOLATED_FILES) expect(files).toContain(file);
  });
});
