import type { MeasureSummary } from "../bundle/bundle-summary.ts";
import { formatDayRange, formatWhen } from "../format.ts";
import { ResponsiveTable } from "./responsive-table.tsx";

const COLUMNS = [
  { key: "latest", label: "Latest" },
  { key: "when", label: "Taken" },
  { key: "records", label: "Records" },
  { key: "dates", label: "Dates" },
];

/** "90 days (1,296,000 values)" for daily aggregates, else the count of records. */
const recordsText = (measure: MeasureSummary) =>
  measure.samples === null ? measure.count.toLocaleString() : `${measure.count.toLocaleString()} ${measure.count === 1 ? "day" : "days"} (${measure.samples.toLocaleString()} values)`;

/** One row per measure of a category: its latest value (a day's total or range for frequent samples), when, how many and over which dates. */
export function LatestValuesTable({ caption, measures, zone }: { caption: string; measures: MeasureSummary[]; zone: string }) {
  return (
    <ResponsiveTable
      caption={caption}
      headerLabel="Measure"
      columns={COLUMNS}
      rows={measures.map((measure) => ({
        key: measure.key,
        header: measure.name,
        cells: {
          latest: measure.latest.text,
          when: measure.latest.when === null ? "–" : formatWhen(measure.latest.when, zone),
          records: recordsText(measure),
          dates: measure.days ? formatDayRange(measure.days) : "–",
        },
      }))}
    />
  );
}
