import { describe, expect, it } from "vitest";
import { outputMatches } from "./expected-output.ts";
import { guideBlocksOf } from "./guide-blocks.ts";

// The rules the guide tests hold the guides to (guides.test.ts runs them).

const fence = (info: string, body: string) => `\`\`\`${info}\n${body}\n\`\`\``;

describe("guideBlocksOf", () => {
  it("runs sh blocks, pairs each with the output block after it, writes file blocks and shows sketches", () => {
    const markdown = [
      "# Guide",
      fence("ndjson file=a.ndjson", '{"a":1}'),
      fence("sh", "curl --data-binary @a.ndjson"),
      "It prints:",
      fence("json output", '{"ok": true}'),
      "- In a list:",
      "",
      "  <!-- no-run: it starts the server -->",
      "  " + fence("sh no-run", "npm start").replace(/\n/g, "\n  "),
      fence("swift sketch", "let x = 1"),
    ].join("\n\n");
    const { blocks, problems } = guideBlocksOf(markdown);
    expect(problems).toEqual([]);
    expect(blocks.map((block) => block.kind)).toEqual(["file", "run", "no-run", "sketch"]);
    expect(blocks[0]).toMatchObject({ name: "a.ndjson", content: '{"a":1}\n' });
    expect(blocks[1]).toMatchObject({ output: { lang: "json", value: '{"ok": true}' } });
    expect(blocks[2]).toMatchObject({ block: { value: "npm start", comment: "no-run: it starts the server" } });
  });

  it("names each block the tests would neither run nor check", () => {
    const markdown = [
      fence("sh no-run", "npm start"),
      fence("text output", "stray"),
      fence("sh", "true"),
      fence("text output", "one"),
      fence("text output", "two"),
      fence("json", "{}"),
      fence("sh sketch", "true"),
      fence("ndjson file=../x", "{}"),
      fence("ndjson file=unused.ndjson", "{}"),
      fence("", "plain"),
    ].join("\n\n");
    expect(guideBlocksOf(markdown).problems).toEqual([
      "line 1: a no-run block needs an HTML comment right before it saying why: <!-- no-run: why -->",
      "line 5: an output block must follow the sh block it belongs to (one output each)",
      "line 17: an output block must follow the sh block it belongs to (one output each)",
      "line 21: the block ```json is neither run nor checked (use sh, sh no-run, output, file=<name> or sketch)",
      "line 25: the block ```sh sketch is neither run nor checked (use sh, sh no-run, output, file=<name> or sketch)",
      "line 29: file=../x is not a plain file name",
      "line 37: the block ``` is neither run nor checked (use sh, sh no-run, output, file=<name> or sketch)",
      "line 29: no sh block uses file=../x",
      "line 33: no sh block uses file=unused.ndjson",
    ]);
  });
});

describe("outputMatches", () => {
  it("matches text line by line, `...` standing for any text, CRLF as LF", () => {
    expect(outputMatches("HTTP/1.1 202 Accepted\n...\nLocation: /v1/ingest/uploads/...", "HTTP/1.1 202 Accepted\r\nX-Request-Id: r1\r\nLocation: /v1/ingest/uploads/u1\r\n", "text")).toBe(true);
    expect(outputMatches("Demo: Connected", "Demo: Not connected", "text")).toBe(false);
    expect(outputMatches("a\nb", "a\nb\nc", "text")).toBe(false);
    // Regular expression characters in the shown text are plain text.
    expect(outputMatches("(a+b)?", "aab", "text")).toBe(false);
  });

  it("matches a compact JSON answer against its indented form, ignoring whitespace outside strings only", () => {
    const shown = '{\n  "id": "...",\n  "status": "processed",\n  ...\n  "rejected": {"total": 0, "first": []}\n}';
    expect(outputMatches(shown, '{"id":"u1","status":"processed","byte_size":3,"rejected":{"total":0,"first":[]}}', "json")).toBe(true);
    expect(outputMatches(shown, '{"id":"u1","status":"failed","byte_size":3,"rejected":{"total":0,"first":[]}}', "json")).toBe(false);
    expect(outputMatches('{"name": "a b"}', '{"name":"ab"}', "json")).toBe(false);
    expect(outputMatches('{"q": "say \\"hi\\" "}', '{"q":"say \\"hi\\" "}', "json")).toBe(true);
  });
});
