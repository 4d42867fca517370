import type { MeasureSummary } from "../bundle/bundle-summary.ts";
import { formatWhen } from "../format.ts";
import { ResponsiveTable } from "./responsive-table.tsx";

/** The latest records of a kind with several figures (sleep, workouts, daily summaries...), newest first. */
export function RecentRecordsTable({ measure, zone, zoneNote }: { measure: MeasureSummary; zone: string; zoneNote: string }) {
  const which = measure.recent.length < measure.count ? `latest ${measure.recent.length} of ${measure.count}` : "all records";
  return (
    <ResponsiveTable
      caption={`${measure.name}: ${which} (${zoneNote})`}
      headerLabel="When"
      columns={[{ key: "details", label: "Details" }]}
      rows={measure.recent.map((record) => ({
        key: record.id,
        header: record.when === null ? "–" : formatWhen(record.when, zone),
        cells: { details: record.text },
      }))}
    />
  );
}
