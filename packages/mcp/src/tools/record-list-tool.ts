import { z } from "zod";
import { callProcedure, procedureDescription, procedureInput, type ProcedurePath } from "../router-procedures.ts";
import type { McpRequestContext, ToolDefinition } from "../tool-definition.ts";
import { answerSchema, descriptionOf, WINDOW_FIELDS } from "../results/output-schema.ts";
import { readRecords, type RecordOrder } from "../results/read-records.ts";
import type { RecordShape } from "../results/record-shape.ts";
import type { RecordWindow } from "../results/record-window.ts";
import type { ReadPage, RestPage } from "../results/rest-page.ts";
import { userIdFor, ZUserIdArgument } from "./user-scope.ts";

/** The arguments of a per-user read: user_id, then the REST route's query parameters. */
export function perUserArguments(path: ProcedurePath): z.ZodObject {
  return z.object({ user_id: ZUserIdArgument, ...procedureInput(path).omit({ id: true }).shape });
}

export const ZOrder = z
  .enum(["oldest_first", "newest_first"])
  .default("oldest_first")
  .describe(
    "`oldest_first` (default) or `newest_first`. newest_first with a small limit gives the latest records (the latest reading, last night, the last workout): it reads back from end (or now) as far as needed, within start when given. A cursor continues only in the order it was made in.",
  );

/** How the compact answer reads, told in every record tool's description. */
export const COMPACT_ANSWER =
  "Provenance (provider, source, device, unit, ...) is given once per stream in `streams`; each record holds only its own fields, with `stream` (an index into streams) when there are several, and leaves nulls out. In the merged view a stream's `outranked` counts its records that were preferred to another stream's.";

/** A sentence for the description: what a read without start covers. */
export function windowText(window: RecordWindow, newestFirst: boolean): string {
  const order = newestFirst ? " (order=newest_first reads back as far as needed)" : "";
  return `Without start (and cursor) it reads ${window.defaultSpanText} before end, or before now${order}.`;
}

/** The start argument, telling the tool's default. */
function startArgument(input: z.ZodObject, window: RecordWindow): z.ZodType {
  const start = input.shape.start as z.ZodType;
  return start.describe(`${descriptionOf(start) ?? ""} Left out (with no cursor): ${window.defaultSpanText} before end (or now).`.trim());
}

/** The input schema of a record tool: the route's arguments, with the default window told and `order` added. */
export function recordArguments(path: ProcedurePath, window: RecordWindow | undefined, newestFirst: boolean): z.ZodObject {
  const input = perUserArguments(path);
  return input.extend({ ...(window && { start: startArgument(input, window) }), ...(newestFirst && { order: ZOrder }) });
}

/** Reads one page of `path` for the user the call names. */
export function pageReader(ctx: McpRequestContext, path: ProcedurePath, userId: string): ReadPage {
  return async (args) => {
    const page = (await callProcedure(ctx.api, path, { ...args, id: userId })) as { data: RestPage["data"]; next_cursor?: string | null };
    return { data: page.data, next_cursor: page.next_cursor ?? null };
  };
}

export const orderOf = (order: unknown): RecordOrder => (order === "newest_first" ? "newest_first" : "oldest_first");

interface RecordListTool {
  name: string;
  title: string;
  /** What it returns and when to use it. */
  summary: string;
  /** The units and scales of its figures. */
  units: string;
  procedure: ProcedurePath;
  shape: RecordShape;
  /** The default window of the tool (none: REST's, from the first record). */
  window?: RecordWindow;
  /** Offers order=newest_first (needs window). */
  newestFirst?: boolean;
  /** An argument that names what to read (a series): with it, no default window. */
  windowIgnoredWith?: string;
  /** Where to turn for long windows, told when an answer is truncated. */
  overview?: string;
}

/** A paged read of one user's records, served by one REST procedure of `GET /v1/users/{id}/...`. */
export function recordListTool(tool: RecordListTool): ToolDefinition {
  const newestFirst = tool.newestFirst === true && tool.window !== undefined;
  return {
    name: tool.name,
    title: tool.title,
    description: [tool.summary, tool.units, tool.window && windowText(tool.window, newestFirst), COMPACT_ANSWER, procedureDescription(tool.procedure)]
      .filter((part) => part)
      .join(" "),
    inputSchema: recordArguments(tool.procedure, tool.window, newestFirst),
    outputSchema: answerSchema([tool.shape], tool.window ? WINDOW_FIELDS : {}),
    async run(ctx, { user_id, order, ...args }) {
      const id = userIdFor(ctx, user_id);
      return readRecords({
        shape: tool.shape,
        read: pageReader(ctx, tool.procedure, id),
        args,
        order: orderOf(order),
        window: tool.window,
        defaultWindow: tool.windowIgnoredWith === undefined || args[tool.windowIgnoredWith] === undefined,
        overview: tool.overview,
      });
    },
  };
}
