import { getProcessingBacklog } from "@svc/core";
import { z } from "zod";
import { callProcedure, procedureDescription, procedureItem } from "../router-procedures.ts";
import type { ToolDefinition } from "../tool-definition.ts";
import { answerSchema } from "../results/output-schema.ts";
import { capRecords } from "../results/read-records.ts";
import type { RecordShape } from "../results/record-shape.ts";
import { perUserArguments } from "./record-list-tool.ts";
import { userIdFor } from "./user-scope.ts";

type CoverageRow = { date: string; provider: string; total: number; records: Record<string, number> };
type Coverage = { start: string; end: string; data: CoverageRow[] };

const REST_ROW = procedureItem("coverage.getCoverage");
const COUNTS = REST_ROW.shape.records as z.ZodObject;
const KINDS = Object.keys(COUNTS.shape);

/** One day and provider: the total, then the count of each kind it has records of (zero counts left out). */
const COVERAGE_ROW: RecordShape = {
  schema: z.object({
    date: REST_ROW.shape.date as z.ZodType,
    provider: z.string().describe("The provider the records came through."),
    total: z.number().int().min(0).describe("Records of every kind that day."),
    ...Object.fromEntries(KINDS.map((kind) => [kind, z.number().int().min(0).describe(`Records of kind ${kind} that day.`)])),
  }),
  usual: Object.fromEntries(KINDS.map((kind) => [kind, 0])),
};

const BACKLOG = {
  start: z.iso.datetime().describe("Start of the window covered."),
  end: z.iso.datetime().describe("End of the window covered (exclusive)."),
  pending_jobs: z.number().int().min(0).describe("Uploads and pulls waiting to be processed."),
  parked_jobs: z.number().int().min(0).describe("Uploads and pulls processing gave up on."),
  rejected_records: z.number().int().min(0).describe("Records that could not be stored."),
};

export const getCoverage: ToolDefinition = {
  name: "get_coverage",
  title: "Data coverage",
  description:
    "What data a user has: record counts per provider per UTC day and kind (kinds with no record that day left out), plus pending_jobs (uploads and pulls waiting to be processed), parked_jobs (ones processing gave up on) and rejected_records (records that could not be stored). " +
    "Call it first to see which days and sources have data before reading records. Capped, not paged: narrow start and end; without start it covers the 30 days before end (or now). " +
    procedureDescription("coverage.getCoverage"),
  inputSchema: perUserArguments("coverage.getCoverage"),
  outputSchema: answerSchema([COVERAGE_ROW], BACKLOG),
  async run(ctx, { user_id, ...args }) {
    const id = userIdFor(ctx, user_id);
    // The procedure checks who may read the user; the backlog is read only after it answered.
    const coverage = (await callProcedure(ctx.api, "coverage.getCoverage", { ...args, id })) as Coverage;
    const backlog = await getProcessingBacklog(ctx.api.deps.db, id, args.provider as string | undefined);
    const rows = coverage.data.map(({ records, ...row }) => ({ ...row, ...records }));
    return capRecords(COVERAGE_ROW, rows, { start: coverage.start, end: coverage.end, ...backlog });
  },
};
