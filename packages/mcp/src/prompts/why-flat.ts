import type { PromptDefinition } from "../prompt-definition.ts";
import { daysBefore, GROUND_RULES, today, whoseData, ZUserIdPromptArgument } from "./prompt-parts.ts";

export const whyFlat: PromptDefinition = {
  name: "why_flat",
  title: "Why is my data flat?",
  description: "Finds out why recent data is missing, flat or stale: sync problems, processing backlog, or simply nothing recorded.",
  arguments: { user_id: ZUserIdPromptArgument },
  text({ user_id }) {
    return [
      "Recent data looks flat or missing. Find out why before guessing.",
      whoseData(user_id),
      "1. list_connections: is each provider active, does it need re-authorization, when did it last sync, is it reported broken and why?",
      `2. get_coverage from ${daysBefore(today(), 30)}: on which days does each provider stop having records? Are pending_jobs, parked_jobs or rejected_records above zero?`,
      `3. get_daily from ${daysBefore(today(), 14)}: do the remaining days look like real activity or like a device that was not worn?`,
      "Conclude with the most likely cause (not synced, not processed yet, processing failed, device not worn, nothing happened) and what the user or the operator can do.",
      GROUND_RULES,
    ].join("\n");
  },
};
