import type { PromptDefinition } from "../prompt-definition.ts";
import { afterBreak } from "./after-break.ts";
import { afterEvent } from "./after-event.ts";
import { compareSources } from "./compare-sources.ts";
import { loadAndRecovery } from "./load-and-recovery.ts";
import { morningCheck } from "./morning-check.ts";
import { newHabit } from "./new-habit.ts";
import { raceWeekSleep } from "./race-week-sleep.ts";
import { sleepHabits } from "./sleep-habits.ts";
import { taperCheck } from "./taper-check.ts";
import { weeklyTrainingReview } from "./weekly-training-review.ts";
import { whatData } from "./what-data.ts";
import { whyFlat } from "./why-flat.ts";

/** Every prompt of /mcp, in the order the spec lists them. */
export const MCP_PROMPTS: readonly PromptDefinition[] = [
  morningCheck,
  whyFlat,
  weeklyTrainingReview,
  loadAndRecovery,
  sleepHabits,
  taperCheck,
  raceWeekSleep,
  afterEvent,
  afterBreak,
  newHabit,
  whatData,
  compareSources,
];
