import { getProcessingBacklog } from "@svc/core";
import { callProcedure, procedureDescription } from "../router-procedures.ts";
import type { ToolDefinition } from "../tool-definition.ts";
import { perUserArguments } from "./record-list-tool.ts";
import { userIdFor } from "./user-scope.ts";

type Coverage = { start: string; end: string; data: unknown[] };

export const getCoverage: ToolDefinition = {
  name: "get_coverage",
  title: "Data coverage",
  description:
    "What data a user has: record counts per provider per UTC day and kind, plus pending_jobs (uploads and pulls waiting to be processed), parked_jobs (ones processing gave up on) and rejected_records (records that could not be stored). " +
    "Call it first to see which days and sources have data before reading records. Capped, not paged: narrow start and end; without start it covers the 30 days before end (or now). " +
    procedureDescription("coverage.getCoverage"),
  inputSchema: perUserArguments("coverage.getCoverage"),
  async run(ctx, { user_id, ...args }) {
    const id = userIdFor(ctx, user_id);
    // The procedure checks who may read the user; the backlog is read only after it answered.
    const coverage = (await callProcedure(ctx.api, "coverage.getCoverage", { ...args, id })) as Coverage;
    const backlog = await getProcessingBacklog(ctx.api.deps.db, id, args.provider as string | undefined);
    return { records: coverage.data, next_cursor: null, truncated: false, start: coverage.start, end: coverage.end, ...backlog };
  },
};
