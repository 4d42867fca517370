import { createOpenApiMarkdownRenderer } from "@scalar/openapi-to-markdown";
import { openApiYaml } from "@svc/api";
import GithubSlugger from "github-slugger";
import { parse } from "yaml";
import { outlineOf } from "./markdown-anchors.ts";
import { REGENERATE } from "./regenerate.ts";

type Operation = { summary?: string; tags?: string[] };
type Document = {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, unknown> };
};

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];
const NOTICE = `Generated from [openapi.yaml](../openapi.yaml) by \`${REGENERATE}\`; do not edit by hand.`;

/**
 * The API reference, by path under docs/reference/: openapi.yaml (the document /openapi.yaml
 * serves, with the server URL "/"), and its Markdown rendering under api/: an index of every
 * operation, one page per tag, and a page of the shared schemas the operations refer to.
 */
export async function apiReferenceFiles(): Promise<Record<string, string>> {
  const yaml = await openApiYaml("/");
  const document = parse(yaml) as Document;
  const renderer = await createOpenApiMarkdownRenderer(document as unknown as Record<string, unknown>);
  const linked = {
    schemaReferences: { mode: "linked" as const, resolveUrl: ({ name }: { name: string }) => `schemas.md#${new GithubSlugger().slug(name)}` },
  };
  const files: Record<string, string> = { "openapi.yaml": yaml };
  const tagPages: Array<{ tag: string; file: string; text: string }> = [];
  const fileSlugger = new GithubSlugger();
  for (const tag of tagsOf(document)) {
    const file = `${fileSlugger.slug(tag)}.md`;
    const rendered = await renderer.render({ tag, ...linked });
    const text = `# API reference: ${tag}\n\n${NOTICE} [Every operation](README.md).\n\n${fromOperations(rendered)}`;
    tagPages.push({ tag, file, text });
    files[`api/${file}`] = text;
  }
  const schemas = [];
  for (const name of referencedSchemas(yaml)) {
    schemas.push(demote(await renderer.render({ model: name, ...linked })));
  }
  files["api/schemas.md"] = `# API reference: shared schemas\n\n${NOTICE} [Every operation](README.md).\n\n${schemas.join("\n")}`;
  files["api/README.md"] = indexPage(document, tagPages);
  return files;
}

/** Tags in the order their first operation comes in the document. */
function tagsOf(document: Document): string[] {
  const tags = new Set<string>();
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) for (const tag of item[method]?.tags ?? []) tags.add(tag);
  }
  return [...tags];
}

/** The rendered page from its "## Operations" heading on (the renderer repeats the document's title first). */
function fromOperations(rendered: string): string {
  const start = rendered.indexOf("\n## Operations\n");
  if (start < 0) throw new Error("the rendered tag page has no Operations heading");
  return `${rendered.slice(start + 1).trimEnd()}\n`;
}

function referencedSchemas(yaml: string): string[] {
  const names = new Set<string>();
  for (const match of yaml.matchAll(/\$ref: "?#\/components\/schemas\/([^"\s]+)"?/g)) names.add(match[1] as string);
  return [...names].sort();
}

/** A model page's headings one level down, under the shared page's title. */
function demote(rendered: string): string {
  return `${rendered.replace(/^(#{1,5}) /gm, "#$1 ").trimEnd()}\n`;
}

function indexPage(document: Document, tagPages: Array<{ tag: string; file: string; text: string }>): string {
  const lines = [
    "# API reference",
    "",
    `${document.info.description ?? document.info.title} Version ${document.info.version}.`,
    "",
    "This is the REST interface under `/v1`, rendered from the OpenAPI document the server serves at",
    "`GET /openapi.yaml` ([openapi.yaml](../openapi.yaml) is this build's copy, with the server URL `/`).",
    `After changing a route, run \`${REGENERATE}\`: a test fails while these files are stale.`,
    "Errors are `application/problem+json` bodies ([errors](../errors.md)); every operation takes a",
    "bearer secret ([tokens and keys](../tokens.md)).",
    "",
    "For client generators: every request and answer body is a named schema ([shared schemas](schemas.md)),",
    "so a generated client has one type per name; the upload operations also take their bodies as",
    "`application/octet-stream`; the events svc posts to webhook endpoints are the document's `webhooks`",
    "([events](../events.md)).",
    "",
  ];
  for (const page of tagPages) {
    lines.push(`## ${page.tag}`, "", "| Operation | Summary |", "| --- | --- |");
    const outline = outlineOf(page.text);
    // Each operation's heading (level 3) is followed by its method and path.
    const body = page.text.split("\n");
    let cursor = 0;
    for (const heading of outline.headings.filter((h) => h.depth === 3)) {
      const at = body.indexOf(`### ${heading.text}`, cursor);
      const method = /`([A-Z]+)`/.exec(body[at + 2] ?? "")?.[1];
      const path = /`([^`]+)`/.exec(body[at + 3] ?? "")?.[1];
      if (at < 0 || !method || !path) throw new Error(`cannot read the operation under "${heading.text}" in ${page.file}`);
      cursor = at + 1;
      lines.push(`| [\`${method} ${path}\`](${page.file}#${heading.anchor}) | ${heading.text.replaceAll("|", "\\|")} |`);
    }
    lines.push("");
  }
  lines.push("## Shared schemas", "", "[Problem and other shared schemas](schemas.md).", "");
  return lines.join("\n");
}
