import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Nodes, Root } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";

/** `<!-- example: examples/verify-webhook.ts -->`: the fenced block right after it is that file. */
const MARKER = /^<!--\s*example:\s*(\S+)\s*-->$/;

/** One `<!-- example: … -->` of a guide, with the fenced block after it (null when there is none). */
export interface ExampleInclude {
  /** The guide, relative to the guides folder. */
  guide: string;
  line: number;
  /** The file as written in the marker, relative to the guide. */
  file: string;
  block: string | null;
}

/** Every example marker of the Markdown files of `guidesDir` (not its subfolders), in order. */
export function exampleIncludes(guidesDir: string): ExampleInclude[] {
  const includes: ExampleInclude[] = [];
  for (const guide of readdirSync(guidesDir).filter((name) => name.endsWith(".md")).sort()) {
    const tree: Root = fromMarkdown(readFileSync(path.join(guidesDir, guide), "utf8"));
    const visit = (node: Nodes): void => {
      if (!("children" in node)) return;
      node.children.forEach((child, index) => {
        const file = child.type === "html" ? MARKER.exec(child.value.trim())?.[1] : undefined;
        if (file !== undefined) {
          const next = node.children[index + 1];
          includes.push({ guide, line: child.position?.start.line ?? 0, file, block: next?.type === "code" ? next.value : null });
        }
        visit(child);
      });
    };
    visit(tree);
  }
  return includes;
}

/**
 * What is wrong with the examples of the guides in `guidesDir`: a marker without a fenced block
 * after it, naming a file that does not exist, or whose block differs from the file; and a file
 * of `examples/` that no guide shows.
 */
export function exampleProblems(guidesDir: string): string[] {
  const problems: string[] = [];
  const shown = new Set<string>();
  for (const include of exampleIncludes(guidesDir)) {
    const where = `${include.guide}:${include.line}`;
    const file = path.resolve(guidesDir, include.file);
    shown.add(file);
    if (include.block === null) problems.push(`${where}: no fenced block follows the example marker of ${include.file}`);
    else if (!existsSync(file)) problems.push(`${where}: ${include.file} does not exist`);
    else if (readFileSync(file, "utf8").replace(/\n$/, "") !== include.block) problems.push(`${where}: the block differs from ${include.file}: copy the file into it`);
  }
  const examplesDir = path.join(guidesDir, "examples");
  if (existsSync(examplesDir)) {
    for (const name of readdirSync(examplesDir).sort()) {
      if (!shown.has(path.join(examplesDir, name))) problems.push(`examples/${name} is shown by no guide`);
    }
  }
  return problems;
}
