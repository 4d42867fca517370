// Every relative link in docs/ must lead to a file that exists and, for a #fragment into a
// Markdown file, to one of its headings: moved or renamed pages fail here.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { brokenDocLinks } from "../doc-links.ts";

const docsDir = path.join(fileURLToPath(new URL("../../../", import.meta.url)), "docs");

describe("links in docs/", () => {
  it("all resolve", () => {
    expect(brokenDocLinks(docsDir)).toEqual([]);
  });
});

describe("brokenDocLinks", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "doc-links-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("names missing files and anchors, and knows GitHub's heading anchors", () => {
    mkdirSync(path.join(dir, "reference"));
    writeFileSync(
      path.join(dir, "reference", "limits.md"),
      '# Limits\n\n## Body `size` limits\n\n## Body `size` limits\n\n<a id="old-name"></a>\n\n```md\n[in code](nowhere.md)\n```\n',
    );
    writeFileSync(
      path.join(dir, "README.md"),
      [
        "# Docs",
        "[ok](reference/limits.md#body-size-limits) [second](reference/limits.md#body-size-limits-1)",
        "[html anchor](reference/limits.md#old-name) [self](#docs) [web](https://example.com/x.md)",
        "[gone](reference/units.md) [bad anchor](reference/limits.md#body-limits) [bad self](#nothing)",
        "[ref style][r]",
        "",
        "[r]: reference/errors.md",
      ].join("\n"),
    );
    expect(brokenDocLinks(dir)).toEqual([
      "README.md:4: reference/units.md (no such file)",
      "README.md:4: reference/limits.md#body-limits (no such anchor)",
      "README.md:4: #nothing (no such anchor)",
      "README.md:7: reference/errors.md (no such file)",
    ]);
  });
});
