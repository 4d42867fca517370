import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { outlineOf } from "./markdown-anchors.ts";

/**
 * Every relative link of the Markdown files under `docsDir` that does not resolve: a file or
 * folder that does not exist, or a `#fragment` that names no heading or HTML anchor of the
 * Markdown file it points to. Links with a scheme (https:, mailto:) are not followed.
 */
export function brokenDocLinks(docsDir: string): string[] {
  const files = markdownFiles(docsDir);
  const anchors = new Map<string, Set<string>>();
  const anchorsOf = (file: string): Set<string> => {
    let known = anchors.get(file);
    if (!known) {
      const outline = outlineOf(readFileSync(file, "utf8"));
      known = new Set([...outline.headings.map((heading) => heading.anchor), ...outline.htmlAnchors]);
      anchors.set(file, known);
    }
    return known;
  };
  const broken: string[] = [];
  for (const file of files) {
    const where = (line: number) => `${path.relative(docsDir, file)}:${line}`;
    for (const link of outlineOf(readFileSync(file, "utf8")).links) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link.url) || link.url.startsWith("//")) continue;
      const [rawTarget = "", fragment] = link.url.split("#", 2);
      const target = rawTarget === "" ? file : path.resolve(path.dirname(file), decodeURIComponent(rawTarget));
      if (!existsSync(target)) {
        broken.push(`${where(link.line)}: ${link.url} (no such file)`);
        continue;
      }
      if (fragment === undefined || fragment === "" || !target.endsWith(".md") || statSync(target).isDirectory()) continue;
      if (!anchorsOf(target).has(decodeURIComponent(fragment))) broken.push(`${where(link.line)}: ${link.url} (no such anchor)`);
    }
  }
  return broken;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".md"))
    .map((name) => path.join(dir, name))
    .sort();
}
