import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { problemFor } from "@svc/api";
import { toProblem } from "@svc/core";
import { TRPCError } from "@trpc/server";

/** What every tool answers: as structuredContent, and as the same JSON in one text content. */
export interface ToolRecords {
  /** True when more records match than this answer holds. */
  truncated: boolean;
  /** Pass back as `cursor` for the next page; null on the last page (and for tools that are not paged). */
  next_cursor: string | null;
  /** How to get more, when truncated. */
  hint?: string;
  /** The provenance the records share, once per stream. */
  streams?: unknown[];
  records: unknown[];
  /** Extra top-level fields of some tools (the window read, coverage backlog, stats window). */
  [field: string]: unknown;
}

/**
 * The answer: the records as structuredContent (MCP 2025-06-18 and later) and the same JSON as
 * text for older clients. Records come last, so a reader sees truncated and the hint first.
 */
export function toolAnswer(answer: ToolRecords): CallToolResult {
  const { records, ...rest } = answer;
  const structuredContent = { ...rest, records };
  return { content: [{ type: "text", text: JSON.stringify(structuredContent) }], structuredContent };
}

/**
 * A refusal as a tool error: the problem's title and detail, which never hold a secret or a
 * health value (unexpected errors become the generic 500 text).
 */
export function toolRefusal(error: unknown, requestId: string): { result: CallToolResult; unexpected: boolean } {
  const problem = error instanceof TRPCError ? problemFor(error, requestId).problem : toProblem(error, requestId);
  return {
    result: { isError: true, content: [{ type: "text", text: `${problem.title}: ${problem.detail}` }] },
    unexpected: problem.status >= 500,
  };
}
