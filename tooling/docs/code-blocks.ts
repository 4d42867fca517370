import type { Nodes, Root } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";

/** A fenced code block of a Markdown text. */
export interface CodeBlock {
  /** The info string's first word (`sh`, `json`, `ndjson`), or null. */
  lang: string | null;
  /** The rest of the info string (`no-run`, `output`, `file=a.ndjson`), or null. */
  meta: string | null;
  /** The content, without the fences and without the newline before the closing fence. */
  value: string;
  /** The line of its opening fence (1-based). */
  line: number;
  /** The text of an HTML comment directly before the block (`<!-- no-run: why -->` gives `no-run: why`), or null. */
  comment: string | null;
}

const COMMENT = /^<!--\s*([\s\S]*?)\s*-->$/;

/** The code blocks of a Markdown text, in order, each with the HTML comment that precedes it. */
export function codeBlocksOf(markdown: string): CodeBlock[] {
  const tree: Root = fromMarkdown(markdown);
  const blocks: CodeBlock[] = [];
  const visit = (node: Nodes): void => {
    if (!("children" in node)) return;
    let previous: Nodes | undefined;
    for (const child of node.children as Nodes[]) {
      if (child.type === "code") {
        const comment = previous?.type === "html" ? (COMMENT.exec(previous.value.trim())?.[1] ?? null) : null;
        blocks.push({ lang: child.lang ?? null, meta: child.meta ?? null, value: child.value, line: child.position?.start.line ?? 0, comment });
      }
      visit(child);
      previous = child;
    }
  };
  visit(tree);
  return blocks;
}
