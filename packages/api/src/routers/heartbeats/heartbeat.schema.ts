import { z } from "zod";
import { ZProvenance } from "../../schemas/records.ts";

const seriesId = z.uuid().describe("The heartbeat series' id.");

export const ZRrInterval = z.object({
  series_id: seriesId,
  timestamp: z.iso.datetime().describe("When the beat that ends the interval happened."),
  interval_ms: z.number().describe("Time since the previous beat, in milliseconds."),
  preceded_by_gap: z
    .boolean()
    .describe("True when beats are missing before this one, so the interval is not one beat-to-beat interval; HRV leaves it out."),
  ...ZProvenance,
});

const hrvFigure = (what: string) => z.number().nullable().describe(what);

export const ZHrvResult = z.object({
  series_id: seriesId,
  first_beat_at: z.iso.datetime().describe("The series' first beat."),
  last_beat_at: z.iso.datetime().describe("The series' last beat."),
  beat_count: z.number().int().describe("Beats in the series."),
  rmssd_ms: hrvFigure(
    "Root mean square of successive differences of the counted RR intervals, in ms; pairs across a gap or a dropped interval are left out. Null without any pair.",
  ),
  sdnn_ms: hrvFigure("Sample standard deviation (n - 1) of the counted RR intervals, in ms; null with fewer than two."),
  pnn50: hrvFigure("Percentage (0 to 100) of the successive differences larger than 50 ms; null without any pair."),
  mean_rr_ms: hrvFigure("Mean of the counted RR intervals, in ms; null when none counts."),
  mean_heart_rate: hrvFigure("60000 / mean_rr_ms, in beats per minute; null when no interval counts."),
  ...ZProvenance,
});
