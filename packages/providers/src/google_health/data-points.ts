// A stored page of a dataPoints list or reconcile answer to records, by the data point's union field.
import { emptyParsedRecords, type ParsedRecords, type QuantitySampleRecord, type SleepSessionRecord, type WorkoutRecord } from "@svc/core";
import { heartRateVariability, oxygenSaturation, respiratoryRate, restingHeartRate, sleepTemperature } from "./daily.ts";
import { provenanceOf, type Provenance } from "./data-source.ts";
import { exerciseWorkout } from "./exercise.ts";
import { isObject, type JsonObject } from "./json.ts";
import { isDataPointsPayload, zoneOf, type PayloadZone } from "./payload.ts";
import { pointIdOf } from "./point-id.ts";
import { bodyFatSample, heartRateSample, weightSample } from "./samples.ts";
import { sleepSession } from "./sleep.ts";

type Mapped =
  | { samples: QuantitySampleRecord[] }
  | { sleep: SleepSessionRecord }
  | { workout: WorkoutRecord }
  /** Why the point cannot be read. */
  | string;

interface PointContext {
  provenance: Provenance;
  /** The point's own id, for identifiable data types. */
  id: string | null;
  zone: PayloadZone;
}

const one = (sample: QuantitySampleRecord | string): Mapped => (typeof sample === "string" ? sample : { samples: [sample] });
const many = (samples: QuantitySampleRecord[] | string): Mapped => (typeof samples === "string" ? samples : { samples });

/** The union fields svc reads: the field, the record kind named in rejections, and the mapping. */
const MAPPERS: ReadonlyArray<readonly [field: string, kind: string, map: (body: JsonObject, c: PointContext) => Mapped]> = [
  ["heartRate", "heart_rate", (body, c) => one(heartRateSample(body, c.provenance, c.id))],
  ["weight", "weight", (body, c) => one(weightSample(body, c.provenance, c.id))],
  ["bodyFat", "body_fat", (body, c) => one(bodyFatSample(body, c.provenance, c.id))],
  ["dailyRestingHeartRate", "daily_resting_heart_rate", (body, c) => many(restingHeartRate(body, c.provenance, c.zone))],
  ["dailyHeartRateVariability", "daily_heart_rate_variability", (body, c) => many(heartRateVariability(body, c.provenance, c.zone))],
  ["dailyOxygenSaturation", "daily_oxygen_saturation", (body, c) => many(oxygenSaturation(body, c.provenance, c.zone))],
  ["dailyRespiratoryRate", "daily_respiratory_rate", (body, c) => many(respiratoryRate(body, c.provenance, c.zone))],
  ["dailySleepTemperatureDerivations", "daily_sleep_temperature_derivations", (body, c) => many(sleepTemperature(body, c.provenance, c.zone))],
  ["sleep", "sleep", (body, c) => {
    const session = sleepSession(body, c.provenance, c.id);
    return typeof session === "string" ? session : { sleep: session };
  }],
  ["exercise", "exercise", (body, c) => {
    const workout = exerciseWorkout(body, c.provenance, c.id);
    return typeof workout === "string" ? workout : { workout };
  }],
];

/**
 * Maps every data point of the page. A point of a data type svc does not read, or one
 * it cannot read, becomes a rejected record naming the field and the reason.
 */
export function parseDataPoints(payload: unknown): ParsedRecords {
  if (!isDataPointsPayload(payload)) throw new Error("google_health-data-points: the payload is not a data points envelope");
  const response = payload.response;
  if (!isObject(response)) throw new Error("google_health-data-points: the answer is not an object");
  // An empty page has no dataPoints field at all.
  const points = response.dataPoints ?? [];
  if (!Array.isArray(points)) throw new Error("google_health-data-points: dataPoints is not a list");
  const zone = zoneOf(payload);
  const out = emptyParsedRecords();
  points.forEach((point: unknown, index) => {
    const locator = `dataPoints[${index}]`;
    const reject = (recordKind: string, reason: string) => out.rejected.push({ recordKind, locator, reason: `${recordKind}: ${reason}` });
    if (!isObject(point)) return reject("data_point", "not an object");
    const mapper = MAPPERS.find(([field]) => isObject(point[field]));
    if (!mapper) return reject("data_point", "a data type svc does not read");
    const [field, kind, map] = mapper;
    // list answers name the point in `name`, reconcile answers in `dataPointName`.
    const mapped = map(point[field] as JsonObject, { provenance: provenanceOf(point), id: pointIdOf(point.name ?? point.dataPointName), zone });
    if (typeof mapped === "string") return reject(kind, mapped);
    if ("samples" in mapped) for (const sample of mapped.samples) out.quantitySamples.push({ ...sample, locator });
    else if ("sleep" in mapped) out.sleepSessions.push({ ...mapped.sleep, locator });
    else out.workouts.push({ ...mapped.workout, locator });
  });
  return out;
}
