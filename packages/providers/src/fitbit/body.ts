// GET /1/user/-/body/log/weight/date/{start}/{end}.json answers to body mass, BMI and body fat samples.
import { emptyParsedRecords, type ParsedRecords } from "@svc/core";
import { dateOf, isObject, numberOf, textOf } from "./json.ts";
import { localDateTime } from "../local-time.ts";
import { envelopeOf } from "./payload.ts";

/**
 * Each weight log becomes a `body_mass` sample in kg (svc asks in the metric system),
 * with `body_mass_index` and, when the log has one, `body_fat_percentage` at the same
 * time. The log's `source` (`Aria`, `API`, `Web`...) says whether a scale measured it.
 */
export function parseWeightLog(payload: unknown): ParsedRecords {
  const { response, zone, timezone } = envelopeOf("fitbit-weight", payload);
  if (!isObject(response) || !Array.isArray(response.weight)) throw new Error("fitbit-weight: the answer has no weight list");
  const out = emptyParsedRecords();
  response.weight.forEach((log: unknown, index) => {
    const locator = `weight[${index}]`;
    const reject = (reason: string) => out.rejected.push({ recordKind: "weight", locator, reason });
    if (!isObject(log)) return reject("weight: not an object");
    const date = dateOf(log.date);
    const time = textOf(log.time, 12) ?? "00:00:00";
    const at = date ? localDateTime(`${date}T${time}`, zone) : null;
    if (!at) return reject("weight: date or time unreadable");
    const logId = numberOf(log.logId);
    const weight = numberOf(log.weight);
    if (logId === null || weight === null) return reject("weight: logId or weight missing");
    const source = textOf(log.source, 40);
    const byScale = source !== null && /aria|scale/i.test(source);
    const common = {
      source: "fitbit",
      source_name: "Fitbit",
      device: byScale ? source : null,
      on_body: false,
      was_user_entered: !byScale,
      start_date: at,
      timezone,
      external_id: String(logId),
      metadata: { log_source: source },
      locator,
    };
    out.quantitySamples.push({ ...common, type: "body_mass", value: weight, unit: "kg" });
    const bmi = numberOf(log.bmi);
    if (bmi !== null) out.quantitySamples.push({ ...common, type: "body_mass_index", value: bmi, unit: "kg/m2" });
    const fat = numberOf(log.fat);
    if (fat !== null) out.quantitySamples.push({ ...common, type: "body_fat_percentage", value: fat, unit: "%" });
  });
  return out;
}
