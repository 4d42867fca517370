import { SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { CategorySummary } from "../bundle/bundle-summary.ts";
import { formatDayRange } from "../format.ts";
import { LatestValuesTable } from "./latest-values-table.tsx";
import { MeasureChart } from "./measure-chart.tsx";
import { RecentRecordsTable } from "./recent-records-table.tsx";

/** A data category: its charts, its latest values, and the latest records of each kind. */
export function CategorySection({ summary, zone, zoneNote }: { summary: CategorySummary; zone: string; zoneNote: string }) {
  const id = `category-${summary.category}`;
  const charted = summary.measures.filter((measure) => measure.chart !== null);
  const records = summary.measures.filter((measure) => measure.recent.length > 0);
  return (
    <Stack gap="sm" component="section" aria-labelledby={id}>
      <Title order={2} size="h3" id={id}>
        {summary.title}
      </Title>
      <Text c="dimmed" size="sm">
        {summary.count.toLocaleString()} {summary.count === 1 ? "record" : "records"}
        {summary.days ? `, ${formatDayRange(summary.days)}` : ""}
      </Text>
      {charted.length > 0 && (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {charted.map((measure) => (
            <MeasureChart key={measure.key} title={measure.name} chart={measure.chart!} zone={zone} zoneNote={zoneNote} />
          ))}
        </SimpleGrid>
      )}
      <LatestValuesTable caption={`${summary.title}: latest values (${zoneNote})`} measures={summary.measures} zone={zone} />
      {records.map((measure) => (
        <RecentRecordsTable key={measure.key} measure={measure} zone={zone} zoneNote={zoneNote} />
      ))}
    </Stack>
  );
}
