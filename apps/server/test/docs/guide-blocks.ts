// The code blocks of a guide under docs/guides/ and what the guide tests do with each:
//
//   ```sh                   run, in order with the guide's other sh blocks, by one bash (set -euo pipefail)
//   ```sh no-run            not run; the HTML comment right before it says why: <!-- no-run: why -->
//   ```<lang> output        what the sh block before it prints; `...` stands for any text
//   ```<lang> file=<name>   written as <name> (plus a final newline) into the folder the blocks run in
//   ```<lang> sketch        code for another platform (Swift, Kotlin); shown, never run
//   <!-- example: examples/<file> --> before any block: the file itself, which that guide's own
//                           test runs (tooling/docs/test/guide-examples.test.ts checks block = file)
//
// Any other block is a problem: a guide shows nothing the tests neither run nor check.
import { codeBlocksOf, type CodeBlock } from "../../../../tooling/docs/code-blocks.ts";

export type GuideBlock =
  | { kind: "run"; block: CodeBlock; output: CodeBlock | null }
  | { kind: "no-run"; block: CodeBlock }
  | { kind: "file"; block: CodeBlock; name: string; content: string }
  | { kind: "sketch"; block: CodeBlock }
  | { kind: "example"; block: CodeBlock; file: string };

export interface GuideBlocks {
  blocks: GuideBlock[];
  /** Blocks that break the rules above, each naming its line. */
  problems: string[];
}

const FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export function guideBlocksOf(markdown: string): GuideBlocks {
  const blocks: GuideBlock[] = [];
  const problems: string[] = [];
  const files = new Set<string>();
  let previous: GuideBlock | undefined;
  for (const block of codeBlocksOf(markdown)) {
    const words = (block.meta ?? "").split(/\s+/).filter((word) => word !== "");
    const file = words.find((word) => word.startsWith("file="))?.slice("file=".length);
    const problem = (text: string) => problems.push(`line ${block.line}: ${text}`);
    let current: GuideBlock | undefined;
    const example = /^example:\s*(\S+)$/.exec(block.comment ?? "")?.[1];
    if (example !== undefined) {
      current = { kind: "example", block, file: example };
    } else if (block.lang === "sh" && words.length === 0) {
      current = { kind: "run", block, output: null };
    } else if (block.lang === "sh" && words.length === 1 && words[0] === "no-run") {
      if (!/^no-run:\s*\S/.test(block.comment ?? "")) problem("a no-run block needs an HTML comment right before it saying why: <!-- no-run: why -->");
      current = { kind: "no-run", block };
    } else if (words.length === 1 && words[0] === "output") {
      if (previous?.kind !== "run" || previous.output !== null) problem("an output block must follow the sh block it belongs to (one output each)");
      else previous.output = block;
      continue;
    } else if (file !== undefined && words.length === 1) {
      if (!FILE_NAME.test(file)) problem(`file=${file} is not a plain file name`);
      else if (files.has(file)) problem(`file=${file} is written twice`);
      files.add(file);
      current = { kind: "file", block, name: file, content: `${block.value}\n` };
    } else if (words.length === 1 && words[0] === "sketch" && block.lang !== "sh") {
      current = { kind: "sketch", block };
    } else {
      problem(`the block \`\`\`${[block.lang, block.meta].filter(Boolean).join(" ")} is neither run nor checked (use sh, sh no-run, output, file=<name> or sketch)`);
      continue;
    }
    blocks.push(current);
    previous = current;
  }
  for (const file of blocks.filter((b) => b.kind === "file")) {
    const used = blocks.some((b) => b.kind === "run" && b.block.value.includes(file.name));
    if (!used) problems.push(`line ${file.block.line}: no sh block uses file=${file.name}`);
  }
  return { blocks, problems };
}
