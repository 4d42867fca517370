import GithubSlugger from "github-slugger";
import type { Nodes, Root } from "mdast";
import { fromMarkdown } from "mdast-util-from-markdown";
import { toString } from "mdast-util-to-string";

export interface Heading {
  depth: number;
  text: string;
  /** The anchor GitHub gives the heading (`-1`, `-2` … after a repeated one). */
  anchor: string;
}

export interface MarkdownLink {
  url: string;
  line: number;
}

/** A Markdown text's headings, links and HTML anchors (`id="…"`, `name="…"`). */
export interface MarkdownOutline {
  headings: Heading[];
  links: MarkdownLink[];
  htmlAnchors: string[];
}

export function outlineOf(markdown: string): MarkdownOutline {
  const tree: Root = fromMarkdown(markdown);
  const slugger = new GithubSlugger();
  const outline: MarkdownOutline = { headings: [], links: [], htmlAnchors: [] };
  const visit = (node: Nodes): void => {
    if (node.type === "heading") {
      const text = toString(node);
      outline.headings.push({ depth: node.depth, text, anchor: slugger.slug(text) });
    } else if (node.type === "link" || node.type === "definition") {
      outline.links.push({ url: node.url, line: node.position?.start.line ?? 0 });
    } else if (node.type === "html") {
      for (const match of node.value.matchAll(/\b(?:id|name)="([^"]+)"/g)) outline.htmlAnchors.push(match[1] as string);
    }
    if ("children" in node) for (const child of node.children) visit(child);
  };
  visit(tree);
  return outline;
}
