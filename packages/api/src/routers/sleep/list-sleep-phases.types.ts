import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZCursor, ZId, ZLimit, ZPage } from "../../schemas/common.ts";
import { readErrors, ZUserPath, ZWindowEnd, ZWindowStart } from "../../schemas/records.ts";
import { ZSleepPhase } from "./sleep.schema.ts";

export const listSleepPhasesMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/sleep/{session_id}/phases",
    tags: ["records"],
    summary: "List the phases of a sleep session",
    description: "The stages of one sleep session ordered by start_date, oldest first; the window applies to start_date.",
    errorResponses: {
      ...readErrors,
      400: "Invalid session id, window, limit or cursor",
      404: "No such user in the tenant (or not the token's user), no such sleep session of the user, or the user is being deleted",
    },
  },
};

export const ZListSleepPhasesRequestSchema = z.object({
  ...ZUserPath,
  session_id: ZId("sleep session"),
  start: ZWindowStart,
  end: ZWindowEnd,
  cursor: ZCursor,
  limit: ZLimit,
});

export const ZListSleepPhasesResponseSchema = ZPage(ZSleepPhase);
