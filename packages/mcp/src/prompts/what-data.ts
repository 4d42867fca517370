import type { PromptDefinition } from "../prompt-definition.ts";
import { daysBefore, GROUND_RULES, today, whoseData, ZUserIdPromptArgument } from "./prompt-parts.ts";

export const whatData: PromptDefinition = {
  name: "what_data",
  title: "What data is there?",
  description: "An overview of which sources and kinds of data the user has, how far back, and how fresh.",
  arguments: { user_id: ZUserIdPromptArgument },
  text({ user_id }) {
    return [
      "Tell me what health data is available.",
      whoseData(user_id),
      "1. list_connections: connected providers, their status and last sync.",
      `2. get_coverage from ${daysBefore(today(), 90)} in 30-day windows (it is capped): record counts per provider and kind, and gaps; note any pending_jobs, parked_jobs or rejected_records.`,
      "3. list_quantity_types only if you need the meaning or unit of a type name.",
      "Answer with a short table: source, kinds of data, first and last day seen, and whether it is up to date. Then say what questions this data can and cannot answer.",
      GROUND_RULES,
    ].join("\n");
  },
};
