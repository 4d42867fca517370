// Suunto's recovery rows (GET /247samples/recovery) as `body_battery` readings. A row is
// `{timestamp, entryData}` with `Balance` (Suunto's body resources, 0 to 1, shown as 0-100)
// and `StressState` (1 relaxing, 2 active, 3 passive, 4 stressful; 0 is no state). The
// catalog has no type for a stress state: it stays in the reading's metadata. Fields and
// codes are those open-source integrations read (docs/providers.md, "Suunto").

import type { QuantitySampleRecord } from "@svc/core";
import { emptyParsedRecords, MalformedUpload, type ParsedRecords } from "../parsed-records.ts";
import { isObject, zonedTimeOf } from "./json.ts";

export const SUUNTO_RECOVERY_FORMAT = "suunto-recovery";

const STRESS_STATES: Readonly<Record<number, string>> = { 1: "relaxing", 2: "active", 3: "passive", 4: "stressful" };

export function parseSuuntoRecovery(payload: unknown): ParsedRecords {
  if (!Array.isArray(payload)) throw new MalformedUpload("recovery", "a Suunto recovery payload is the list of recovery rows");
  // Ids are the rows' times: a reading never moves.
  const out = { ...emptyParsedRecords(), fixedTimeIds: true };
  payload.forEach((row, index) => {
    const locator = `[${index}]`;
    const at = isObject(row) ? zonedTimeOf(row.timestamp) : null;
    const entry = isObject(row) && isObject(row.entryData) ? row.entryData : null;
    if (!at || !entry) {
      out.rejected.push({ recordKind: "quantity_sample", locator, reason: "suunto recovery: the row's timestamp or entryData is missing or invalid" });
      return;
    }
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
