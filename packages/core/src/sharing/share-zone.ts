import { type DbClient, isTimeZone } from "../platform/index.ts";
import { listRecordZones } from "./record-zone-repository.ts";

/** The zone of a share whose records carry none. */
export const FALLBACK_SHARE_ZONE = "UTC";

/** An IANA zone name (not a bare ±hh:mm offset, which names no place and shifts with nothing). */
const isZoneName = (zone: string) => !/^[+-]\d{2}:\d{2}$/.test(zone) && isTimeZone(zone);

/**
 * The zone a share's days are counted in: the IANA zone most of the window's records carry
 * (sleep sessions, workouts, daily summaries, the latest samples of each shared type), else
 * UTC. One zone for the whole share, so every day of it is a day of one clock and the viewer
 * can name it.
 */
export async function shareZoneOf(db: DbClient, q: { userId: string; start: Date; end: Date; sampleTypes: readonly string[] }): Promise<string> {
  const zones = await listRecordZones(db, q);
  return zones.find((row) => isZoneName(row.zone))?.zone ?? FALLBACK_SHARE_ZONE;
}
