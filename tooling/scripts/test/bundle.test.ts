import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const bundleScript = path.resolve(import.meta.dirname, "../bundle.ts");
let dir: string | undefined;
afterEach(() => dir && rmSync(dir, { recursive: true, force: true }));

describe("bundle.ts", () => {
  it("replaces dist/main.js at once: a process starting it during a rebuild never finds it missing or cut", { timeout: 60_000 }, async () => {
    dir = mkdtempSync(path.join(tmpdir(), "svc-bundle-"));
    mkdirSync(path.join(dir, "src"));
    writeFileSync(path.join(dir, "src", "main.ts"), `console.log(${JSON.stringify("x".repeat(200_000))}.length);\n`);
    const bundle = () => run(process.execPath, [bundleScript, "src/main.ts"], { cwd: dir });
    await bundle();
    const main = path.join(dir, "dist", "main.js");

    let reads = 0;
    const seen: string[] = [];
    let rebuilding = true;
    const rebuilds = (async () => {
      for (let i = 0; i < 8; i++) await bundle();
      rebuilding = false;
    })();
    while (rebuilding) {
      // What `node dist/main.js` would read at that moment.
      try {
        const text = readFileSync(main, "utf8");
        if (!text.endsWith("//# sourceMappingURL=main.js.map\n")) seen.push(`cut at ${text.length} bytes`);
      } catch (error) {
        seen.push((error as NodeJS.ErrnoException).code ?? String(error));
      }
      reads++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await rebuilds;
    expect(reads).toBeGreaterThan(100);
    expect(seen).toEqual([]);
  });
});
