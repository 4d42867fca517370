import type { QuantitySampleRecord } from "@svc/core";
import { localDay } from "../local-time.ts";
import { FITBIT_TRACKER } from "./provenance.ts";
import type { PayloadZone } from "./payload.ts";

/**
 * A figure Fitbit gives per local day (resting heart rate, nightly HRV, SpO2, breathing
 * rate, skin temperature) as a sample over that day, from local midnight to the next.
 * Its external id is the type and date, so a later pull of the day updates it.
 */
export function dailySample(
  zone: PayloadZone,
  date: string,
  figure: { type: string; value: number; unit: string; metadata?: Record<string, unknown> },
  locator: string,
): QuantitySampleRecord {
  const day = localDay(date, zone.zone);
  return {
    ...FITBIT_TRACKER,
    type: figure.type,
    value: figure.value,
    unit: figure.unit,
    start_date: day.start,
    end_date: day.end,
    timezone: zone.timezone,
    external_id: `${figure.type}:${date}`,
    metadata: { date, ...figure.metadata },
    locator,
  };
}
