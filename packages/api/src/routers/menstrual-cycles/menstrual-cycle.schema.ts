import { z } from "zod";

export const ZMenstrualCycle = z.object({
  id: z.uuid().describe("The cycle's id; it stays the same while the cycle's start date does."),
  start_date: z.iso.date().describe("First day of the period that starts the cycle (local date of the recorded flow), YYYY-MM-DD."),
  end_date: z.iso.date().nullable().describe("Last day of the cycle (the day before the next cycle starts), YYYY-MM-DD; null for the current cycle."),
  period_end_date: z.iso.date().describe("Last day with recorded flow in the period, YYYY-MM-DD."),
  period_length_days: z.number().int().describe("Days from start_date to period_end_date, both included."),
  cycle_length_days: z.number().int().nullable().describe("Days from start_date to the next cycle's start; null for the current cycle."),
});
