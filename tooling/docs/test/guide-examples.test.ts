// A guide shows its example files through `<!-- example: examples/<file> -->` followed by a
// fenced block holding the file: the tests run the files, so the block must equal the file.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { exampleIncludes, exampleProblems } from "../guide-examples.ts";

const guidesDir = path.join(fileURLToPath(new URL("../../../", import.meta.url)), "docs", "guides");

describe("examples of docs/guides", () => {
  it("each block equals its file, and every example file is shown", () => {
    expect(exampleIncludes(guidesDir).length).toBeGreaterThan(0);
    expect(exampleProblems(guidesDir)).toEqual([]);
  });
});

describe("exampleProblems", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "guide-examples-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("names a block that differs, a marker without a block, a missing file and a file no guide shows", () => {
    mkdirSync(path.join(dir, "examples"));
    writeFileSync(path.join(dir, "examples", "same.sh"), "echo same\n");
    writeFileSync(path.join(dir, "examples", "changed.py"), "print(2)\n");
    writeFileSync(path.join(dir, "examples", "unshown.go"), "package main\n");
    writeFileSync(
      path.join(dir, "guide.md"),
      [
        "# Guide",
        "<!-- example: examples/same.sh -->",
        "```sh\necho same\n```",
        "- in a list\n\n  <!-- example: examples/same.sh -->\n  ```sh\n  echo same\n  ```",
        "<!-- example: examples/changed.py -->",
        "```python\nprint(1)\n```",
        "<!-- example: examples/same.sh -->",
        "Text instead of a block.",
        "<!-- example: examples/gone.ts -->",
        "```ts\nx\n```",
      ].join("\n\n"),
    );
    expect(exampleProblems(dir)).toEqual([
      "guide.md:16: the block differs from examples/changed.py: copy the file into it",
      "guide.md:22: no fenced block follows the example marker of examples/same.sh",
      "guide.md:26: examples/gone.ts does not exist",
      "examples/unshown.go is shown by no guide",
    ]);
  });
});
