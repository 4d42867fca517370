import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { problemFor } from "@svc/api";
import { toProblem } from "@svc/core";
import { TRPCError } from "@trpc/server";

/** What every tool answers, as one JSON text content. */
export interface ToolRecords {
  records: unknown[];
  /** Pass back as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
  /** True when more records match than this answer holds. */
  truncated: boolean;
  /** Extra top-level fields of some tools (coverage window and backlog, stats window). */
  [field: string]: unknown;
}

/** A REST list page `{data, next_cursor}` as a tool answer. */
export function fromPage(page: { data: unknown[]; next_cursor?: string | null }): ToolRecords {
  const nextCursor = page.next_cursor ?? null;
  return { records: page.data, next_cursor: nextCursor, truncated: nextCursor !== null };
}

export function toolAnswer(records: ToolRecords): CallToolResult {
  return { content: [{ type: "text", text: JSON.stringify(records) }] };
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
