import { isKnownZone } from "../local-time.ts";
import { isObject, textOf } from "./json.ts";

/**
 * What pull stores for one Fitbit answer: the answer as sent, with the user's IANA time
 * zone from the profile beside it. Fitbit writes local times without offsets, so a
 * parser (which sees only the stored payload) needs the zone to place them in time.
 */
export interface FitbitPayload {
  timezone: string | null;
  response: unknown;
}

/** The activity day figures: one answer per time series resource, by resource name. */
export interface FitbitSeriesPayload {
  timezone: string | null;
  responses: Record<string, unknown>;
}

/** The zone to read local times in (UTC when the profile gave none) and the zone to record (null then). */
export interface PayloadZone {
  zone: string;
  timezone: string | null;
}

export function zoneOf(payload: { timezone?: unknown }): PayloadZone {
  const timezone = textOf(payload.timezone, 64);
  return timezone && isKnownZone(timezone) ? { zone: timezone, timezone } : { zone: "UTC", timezone: null };
}

/** The envelope of a stored payload; throws when the payload is not one (the raw object as a whole is unreadable). */
export function envelopeOf(format: string, payload: unknown): PayloadZone & { response: unknown } {
  if (!isObject(payload) || !("response" in payload)) throw new Error(`${format}: the payload is not a Fitbit answer envelope`);
  return { ...zoneOf(payload), response: payload.response };
}
