import { z } from "zod";
import { callProcedure, procedureDescription } from "../router-procedures.ts";
import type { ToolDefinition } from "../tool-definition.ts";
import { fromPage } from "../tool-result.ts";
import { perUserArguments } from "./record-list-tool.ts";
import { userIdFor } from "./user-scope.ts";

type Page = { data: unknown[]; next_cursor: string | null };

/** Sleep sessions; with session_id that session's phases (two REST routes, one tool). */
export const getSleep: ToolDefinition = {
  name: "get_sleep",
  title: "Sleep",
  description:
    "A user's sleep sessions (bedtime, wake time, time asleep per stage, efficiency, heart rate) selected by bedtime_start. " +
    "With session_id (an id from a previous answer) it returns that session's phases instead (awake, light, deep, rem ...), and view is ignored. " +
    procedureDescription("sleep.listSleepSessions"),
  inputSchema: perUserArguments("sleep.listSleepSessions").extend({
    session_id: z.uuid().optional().describe("A sleep session's id: return its phases instead of sessions."),
  }),
  async run(ctx, { user_id, session_id, view, ...args }) {
    const id = userIdFor(ctx, user_id);
    const page =
      session_id === undefined
        ? await callProcedure(ctx.api, "sleep.listSleepSessions", { ...args, view, id })
        : await callProcedure(ctx.api, "sleep.listSleepPhases", { ...args, id, session_id });
    return fromPage(page as Page);
  },
};
