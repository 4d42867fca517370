import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
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

  it("loads a dynamic import's chunk at first use, in a worker thread on the entry too, and a rebuild keeps the chunks an older build imports", { timeout: 60_000 }, async () => {
    dir = mkdtempSync(path.join(tmpdir(), "svc-bundle-"));
    mkdirSync(path.join(dir, "src"));
    const lazy = (text: string) => writeFileSync(path.join(dir!, "src", "lazy.ts"), `export const text = ${JSON.stringify(text)};\n`);
    lazy("first lazy text");
    // As main.ts starts its etl thread: a Worker on the entry's own URL.
    writeFileSync(
      path.join(dir, "src", "main.ts"),
      `import { isMainThread, Worker } from "node:worker_threads";
const where = isMainThread ? "main" : "worker";
if (process.env.LAZY === "1") console.log(where, (await import("./lazy.ts")).text);
else console.log(where, "lazy module not loaded");
if (isMainThread) new Worker(new URL(import.meta.url));
`,
    );
    const bundle = () => run(process.execPath, [bundleScript, "src/main.ts"], { cwd: dir });
    const start = async (env: Record<string, string>) =>
      (await run(process.execPath, [path.join(dir!, "dist", "main.js")], { env: { ...process.env, ...env } })).stdout.trim().split("\n").sort();
    await bundle();
    expect(readFileSync(path.join(dir, "dist", "main.js"), "utf8")).not.toContain("first lazy text");
    // Stack traces need only the mappings.
    expect(JSON.parse(readFileSync(path.join(dir, "dist", "main.js.map"), "utf8"))).not.toHaveProperty("sourcesContent");
    expect(await start({ LAZY: "0" })).toEqual(["main lazy module not loaded", "worker lazy module not loaded"]);
    expect(await start({ LAZY: "1" })).toEqual(["main first lazy text", "worker first lazy text"]);

    const chunks = () => readdirSync(path.join(dir!, "dist", "chunks")).filter((name) => name.endsWith(".js"));
    const [firstChunk] = chunks();
    lazy("second lazy text");
    await bundle();
    expect(chunks()).toContain(firstChunk);
    expect(chunks()).toHaveLength(2);
    expect(await start({ LAZY: "1" })).toEqual(["main second lazy text", "worker second lazy text"]);
  });
});
