import { callProcedure, procedureDescription } from "../router-procedures.ts";
import type { ToolDefinition } from "../tool-definition.ts";
import { perUserArguments } from "./record-list-tool.ts";
import { userIdFor } from "./user-scope.ts";

type Stats = { buckets: unknown[]; truncated: boolean } & Record<string, unknown>;

export const getSampleStats: ToolDefinition = {
  name: "get_sample_stats",
  title: "Sample statistics",
  description:
    "count, sum, avg, min and max of one quantity type per hour or local day: the cheap way to see trends over weeks or months (records are the buckets; start and end are required). " +
    procedureDescription("samples.getSampleStats"),
  inputSchema: perUserArguments("samples.getSampleStats"),
  async run(ctx, { user_id, ...args }) {
    const { buckets, truncated, ...window } = (await callProcedure(ctx.api, "samples.getSampleStats", {
      ...args,
      id: userIdFor(ctx, user_id),
    })) as Stats;
    return { records: buckets, next_cursor: null, truncated, ...window };
  },
};
