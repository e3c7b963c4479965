import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { afterEach, describe, expect, it } from "vitest";

/**
 * Issue 31: the layer check run on small source trees of its own (a `src/` in a temporary
 * folder), as `npm test` runs it on Podium's: what it refuses, and that it passes a clean tree.
 */
const SCRIPT = resolve("scripts/check-layers.mjs");
const folders: string[] = [];

function checkLayers(files: Record<string, string>): { status: number | null; output: string } {
  const root = mkdtempSync(join(tmpdir(), "podium-layers-"));
  folders.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, "src", path)), { recursive: true });
    writeFileSync(join(root, "src", path), text);
  }
  const run = spawnSync(process.execPath, [SCRIPT], { cwd: root, encoding: "utf8" });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const CLEAN = {
  "lib/ids.ts": "export const id = 1;\n",
  "document/schema.ts": 'import { id } from "../lib/ids";\nexport const schema = id;\n',
  "features/deck/service.ts": 'import { schema } from "../../document/schema";\nexport const deck = schema;\n',
  "features/deck/testing/index.ts": 'import { deck } from "../service";\nexport const fixture = deck;\n',
  "features/deck/service.test.ts": 'import { fixture } from "./testing";\nexport const used = fixture;\n',
};

/** What the layer check says of CLEAN with `files` added, a tree it must refuse (exit status 1). */
function refusal(files: Record<string, string>): string {
  const { status, output } = checkLayers({ ...CLEAN, ...files });
  expect(status, output).toBe(1);
  return output;
}

describe("issue 31: the layer check", () => {
  it("passes a tree whose imports point one way", () => {
    const { status, output } = checkLayers(CLEAN);
    expect(output).toContain("Layer check passed");
    expect(status).toBe(0);
  });

  it("item 4: refuses a circle between files, also one made of type imports only", () => {
    const output = refusal({
      "db/client.ts": 'import type { Thread } from "./thread";\nexport interface Client { thread: Thread }\n',
      "db/thread.ts": 'import type { Client } from "./client";\nexport interface Thread { client: Client }\n',
    });
    expect(output).toContain("files import each other in a circle: db/client.ts → db/thread.ts → db/client.ts");
  });

  it("item 3: refuses product code that imports a testing/ module (tests may)", () => {
    const output = refusal({
      "features/deck/routes.ts": 'import { fixture } from "./testing";\nexport const route = fixture;\n',
    });
    expect(output).toContain("features/deck/routes.ts: imports ./testing — a testing/ module is test support");
    expect(output).not.toContain("service.test.ts");
  });

  it("item 1: document/ imports lib/ only, its tests too; nothing imports features/presentation/document", () => {
    const output = refusal({
      "document/layout.ts": 'import { deck } from "../features/deck/service";\nexport const layout = deck;\n',
      "document/layout.test.ts": 'import { deck } from "../features/deck/service";\nexport const seen = deck;\n',
      "features/deck/old.test.ts":
        'import { schema } from "../presentation/document/schema";\nexport const old = schema;\n',
    });
    expect(output).toContain("document/layout.ts: imports ../features/deck/service — document/ is below the features");
    expect(output).toContain("document/layout.test.ts: imports ../features/deck/service");
    expect(output).toContain(
      "features/deck/old.test.ts: imports ../presentation/document/schema — the document lives in document/",
    );
  });
});
