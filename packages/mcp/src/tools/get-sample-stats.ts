import { z } from "zod";
import { callProcedure, procedureDescription, procedureOutput } from "../router-procedures.ts";
import type { ToolDefinition } from "../tool-definition.ts";
import { answerSchema } from "../results/output-schema.ts";
import { capRecords } from "../results/read-records.ts";
import { STATS_BUCKET } from "../results/record-shapes.ts";
import { COMPACT_ANSWER, perUserArguments } from "./record-list-tool.ts";
import { userIdFor } from "./user-scope.ts";

type Stats = { buckets: Array<Record<string, unknown>>; truncated: boolean } & Record<string, unknown>;

/** The stats window beside the buckets: type, interval, tz, view, start and end as REST answers them. */
const WINDOW: Record<string, z.ZodType> = Object.fromEntries(
  Object.entries(procedureOutput("samples.getSampleStats").shape as Record<string, z.ZodType>).filter(([field]) => field !== "buckets" && field !== "truncated"),
);

export const getSampleStats: ToolDefinition = {
  name: "get_sample_stats",
  title: "Sample statistics",
  description: [
    "count, sum, avg, min and max of one quantity type per hour or local day: the cheap way to see trends over weeks or months (records are the buckets; start and end are required).",
    "Units: sum, avg, min and max are in the stream's `unit` (the type's storage unit, e.g. heart_rate count/min, step_count count); sum is meaningful for cumulative types (steps, energy, distance), avg for rates (heart rate); count is the number of samples.",
    COMPACT_ANSWER,
    procedureDescription("samples.getSampleStats"),
  ].join(" "),
  inputSchema: perUserArguments("samples.getSampleStats"),
  outputSchema: answerSchema([STATS_BUCKET], WINDOW),
  async run(ctx, { user_id, ...args }) {
    const { buckets, truncated, ...window } = (await callProcedure(ctx.api, "samples.getSampleStats", {
      ...args,
      id: userIdFor(ctx, user_id),
    })) as Stats;
    return capRecords(STATS_BUCKET, buckets, { truncated, ...window }, "Narrow start and end, or use interval=day.");
  },
};
