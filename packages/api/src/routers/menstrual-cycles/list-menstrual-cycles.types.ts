import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZCursor, ZLimit, ZPage } from "../../schemas/common.ts";
import { readErrors, ZUserPath } from "../../schemas/records.ts";
import { ZMenstrualCycle } from "./menstrual-cycle.schema.ts";

export const listMenstrualCyclesMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/menstrual-cycles",
    tags: ["records"],
    summary: "List menstrual cycles",
    description:
      "Cycles derived from recorded menstrual flow (category samples of type `menstrual_flow` with a value other than `none`, from every provider, on the local dates they were recorded), ordered by start_date. A period is a run of flow days in which one flow-free day is bridged; a new cycle starts at the first flow day after at least two flow-free days. The window is compared as dates with the cycle's start_date.",
    errorResponses: { ...readErrors, 400: "Invalid window, limit or cursor" },
  },
};

const dateBound = (which: string) =>
  z
    .string()
    .max(64)
    .describe(`${which} of the half-open window start <= start_date < end, compared as dates: a YYYY-MM-DD date, or an RFC 3339 time standing for its date part as written (its local date).`)
    .optional();

export const ZListMenstrualCyclesRequestSchema = z.object({
  ...ZUserPath,
  start: dateBound("Start"),
  end: dateBound("End"),
  cursor: ZCursor,
  limit: ZLimit,
});

export const ZListMenstrualCyclesResponseSchema = ZPage(ZMenstrualCycle);
