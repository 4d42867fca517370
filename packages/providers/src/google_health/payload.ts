import { isKnownZone } from "../local-time.ts";
import { isObject, textOf } from "./json.ts";

/**
 * What pull stores for one page of a dataPoints list or reconcile answer: the answer as
 * sent, the data type asked for, and the user's IANA zone from the settings (the daily
 * data types name a date without a zone).
 */
export interface DataPointsPayload {
  dataType: string;
  timezone: string | null;
  response: unknown;
}

/** The daily rollups of one date range: one dailyRollUp answer per data type. */
export interface DailyRollupsPayload {
  timezone: string | null;
  responses: Record<string, unknown>;
}

export interface PayloadZone {
  /** The zone to read local days in (UTC when the settings gave none). */
  zone: string;
  /** The zone to record; null when unknown. */
  timezone: string | null;
}

export function zoneOf(payload: { timezone?: unknown }): PayloadZone {
  const timezone = textOf(payload.timezone, 64);
  return timezone && isKnownZone(timezone) ? { zone: timezone, timezone } : { zone: "UTC", timezone: null };
}

export function isDataPointsPayload(payload: unknown): payload is DataPointsPayload {
  return isObject(payload) && typeof payload.dataType === "string" && "response" in payload;
}
