import { z } from "zod";

export const ZScope = z
  .string()
  .min(1)
  .max(64)
  .describe("`*` (every metric), a group (`activity`, `heart`, `recovery`, `body`, `sleep`, `workouts`, ...) or a metric (`heart_rate`, `sleep_session`, `workout`, `daily_summary`, ...).");

export const ZSources = z
  .array(z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,63}$/, "a source is a lower-case slug such as garmin or apple"))
  .min(1)
  .max(50)
  .describe("Sources (vendor slugs, or provider slugs for records of unknown vendor), most preferred first.");

export const ZSourceOrder = z.object({
  scope: z.string(),
  sources: z.array(z.string()),
  updated_at: z.iso.datetime(),
});
