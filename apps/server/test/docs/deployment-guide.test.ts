// docs/guides/deployment.md shows commands for a production host, none run by the guide tests:
// each says which test runs the same command, and that test must exist and run it.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { guideBlocksOf } from "./guide-blocks.ts";

const ROOT = path.resolve(import.meta.dirname, "../../../..");
const markdown = readFileSync(path.join(ROOT, "docs/guides/deployment.md"), "utf8");
const { blocks, problems } = guideBlocksOf(markdown);

/** What each command of the guide is, and what the test it names must do to run it. */
const COMMANDS = [
  { command: "npm run build:release -- --out", test: ["tooling/scripts/release.ts", '"--out"'] },
  { command: "node cli.mjs migrate", test: ['"cli.mjs", ["migrate"]', '"admin", "tenant", "create"', "server.mjs"] },
  { command: "/metrics", test: ["SVC_METRICS_PORT", "/metrics"] },
];

describe("docs/guides/deployment.md", () => {
  it("shows only code the tests run or check, and runs none of it", () => {
    expect(problems).toEqual([]);
    expect(blocks.map((block) => block.kind)).toEqual(COMMANDS.map(() => "no-run"));
  });

  it("names, for each command, a test that runs it", () => {
    for (const [i, block] of blocks.entries()) {
      const { command, test } = COMMANDS[i]!;
      expect(block.block.value).toContain(command);
      const named = /tested by (\S+\.test\.ts)/.exec(block.block.comment ?? "")?.[1];
      expect(named, `line ${block.block.line}`).toBeDefined();
      expect(existsSync(path.join(ROOT, named!)), named).toBe(true);
      const source = readFileSync(path.join(ROOT, named!), "utf8");
      for (const text of test) expect(source, `${named} runs ${command}`).toContain(text);
    }
  });

  it("builds the bundle with the npm script the guide names", () => {
    const scripts = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts as Record<string, string>;
    expect(scripts["build:release"]).toBe("node tooling/scripts/run.mjs release");
    expect(readFileSync(path.join(ROOT, "tooling/scripts/run.mjs"), "utf8")).toMatch(/release\.ts/);
  });
});
