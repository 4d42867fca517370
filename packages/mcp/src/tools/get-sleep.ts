import { z } from "zod";
import { procedureDescription } from "../router-procedures.ts";
import type { ToolDefinition } from "../tool-definition.ts";
import { answerSchema, WINDOW_FIELDS } from "../results/output-schema.ts";
import { readRecords } from "../results/read-records.ts";
import { SLEEP_PHASE, SLEEP_SESSION } from "../results/record-shapes.ts";
import { DAY_MS, type RecordWindow } from "../results/record-window.ts";
import { COMPACT_ANSWER, orderOf, pageReader, recordArguments, windowText } from "./record-list-tool.ts";
import { userIdFor } from "./user-scope.ts";

const SLEEP_WINDOW: RecordWindow = { key: "bedtime_start", unit: "time", defaultSpanMs: 7 * DAY_MS, defaultSpanText: "the 7 days", firstStepMs: 7 * DAY_MS };

/** Sleep sessions; with session_id that session's phases (two REST routes, one tool). */
export const getSleep: ToolDefinition = {
  name: "get_sleep",
  title: "Sleep",
  description: [
    "A user's sleep sessions (bedtime, wake time, time asleep per stage, efficiency, heart rate) selected by bedtime_start; order=newest_first with limit 1 gives last night.",
    "Units: every *_seconds figure in seconds; efficiency is a fraction 0 to 1 (0.92 = 92% of the time in bed asleep); score 0 to 100 (the provider's sleep score); average_heart_rate and lowest_heart_rate in count/min; average_hrv is RMSSD in ms; respiratory_rate in breaths/min.",
    "With session_id (an id from a previous answer) it returns that session's phases instead (awake, light, deep, rem ...), and view and order are ignored.",
    windowText(SLEEP_WINDOW, true),
    COMPACT_ANSWER,
    procedureDescription("sleep.listSleepSessions"),
  ].join(" "),
  inputSchema: recordArguments("sleep.listSleepSessions", SLEEP_WINDOW, true).extend({
    session_id: z.uuid().optional().describe("A sleep session's id: return its phases instead of sessions."),
  }),
  outputSchema: answerSchema([SLEEP_SESSION, SLEEP_PHASE], { start: WINDOW_FIELDS.start.optional(), end: WINDOW_FIELDS.end.optional() }),
  async run(ctx, { user_id, session_id, view, order, ...args }) {
    const id = userIdFor(ctx, user_id);
    if (session_id !== undefined) {
      return readRecords({ shape: SLEEP_PHASE, read: pageReader(ctx, "sleep.listSleepPhases", id), args: { ...args, session_id }, order: "oldest_first" });
    }
    return readRecords({
      shape: SLEEP_SESSION,
      read: pageReader(ctx, "sleep.listSleepSessions", id),
      args: { ...args, view },
      order: orderOf(order),
      window: SLEEP_WINDOW,
    });
  },
};
