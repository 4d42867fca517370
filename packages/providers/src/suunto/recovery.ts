// Suunto's recovery rows (GET /247samples/recovery) as `body_battery` readings. A row is
// `{timestamp, entryData}` with `Balance` (Suunto's body resources, 0 to 1, shown as 0-100)
// and `StressState` (1 relaxing, 2 active, 3 passive, 4 stressful; 0 is no state). The
// catalog has no type for a stress state: it stays in the reading's metadata. Fields and
// codes are those open-source integrations read (docs/providers.md, "Suunto").

import type { QuantitySampleRecord } from "@svc/core";
import { emptyParsedRecords, type ParsedRecords } from "../parsed-records.ts";
import { forEachSampleRow } from "./sample-rows.ts";

export const SUUNTO_RECOVERY_FORMAT = "suunto-recovery";

const STRESS_STATES: Readonly<Record<number, string>> = { 1: "relaxing", 2: "active", 3: "passive", 4: "stressful" };

export function parseSuuntoRecovery(payload: unknown): ParsedRecords {
  // Ids are the rows' times: a reading never moves.
  const out = { ...emptyParsedRecords(), fixedTimeIds: true };
  forEachSampleRow(payload, "recovery", out, (entry, at, locator) => {
    const balance = entry.Balance;
    if (balance === undefined || balance === null) return;
    if (typeof balance !== "number" || !Number.isFinite(balance) || balance < 0 || balance > 1) {
      out.rejected.push({ recordKind: "quantity_sample", locator, reason: "suunto recovery: Balance is not a figure from 0 to 1" });
      return;
    }
    const state = typeof entry.StressState === "number" ? STRESS_STATES[entry.StressState] : undefined;
    out.quantitySamples.push({
      type: "body_battery",
      value: Math.round(balance * 1000) / 10,
      unit: "score",
      start_date: at.instant,
      source: "suunto",
      source_name: "Suunto",
      on_body: true,
      timezone: at.offset,
      external_id: `recovery:${at.instant.getTime()}`,
      metadata: state ? { stress_state: state } : {},
      locator,
    } satisfies QuantitySampleRecord);
  });
  return out;
}
