import { Group, Paper, Stack, Text, Title } from "@mantine/core";
import type { BundleSummary } from "../bundle/bundle-summary.ts";
import { formatDateTime, formatDayRange } from "../format.ts";
import { CategorySection } from "./category-section.tsx";
import { DownloadButton } from "./download-button.tsx";
import { ResponsiveTable } from "./responsive-table.tsx";

/** "days and times in Europe/Berlin", the note every chart and table carries. */
const zoneNoteOf = (summary: BundleSummary) => `days and times in ${summary.zone}${summary.zoneIsViewers ? " (this browser's time zone)" : ""}`;

/** The opened share: an overview per category, the download, then each category in detail. */
export function ShareSummary({ json, summary, generatedAt }: { json: string; summary: BundleSummary; generatedAt: string | null }) {
  const generated = generatedAt ? Date.parse(generatedAt) : Number.NaN;
  const zoneNote = zoneNoteOf(summary);
  return (
    <Stack gap="xl">
      <Paper withBorder p="md" component="section" aria-labelledby="overview-title">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-start">
            <Stack gap={2}>
              <Title order={2} size="h3" id="overview-title">
                Overview
              </Title>
              <Text role="status">
                {summary.observations.toLocaleString()} {summary.observations === 1 ? "observation" : "observations"}
                {summary.days ? `, ${formatDayRange(summary.days)}` : ""}.
              </Text>
              <Text size="sm">
                Days and times are in {summary.zone}
                {summary.zoneIsViewers ? ", this browser's time zone (the share does not name one)." : ", the time zone of the records."}
              </Text>
              {summary.detail === "daily" && (
                <Text size="sm">
                  Frequent measurements are shown per day: counts (steps, energy, distance) as the day's total, readings (heart rate, oxygen
                  saturation...) as the day's minimum, average and maximum.
                </Text>
              )}
              {!Number.isNaN(generated) && (
                <Text size="sm" c="dimmed">
                  Prepared {formatDateTime(generated, summary.zone)}.
                </Text>
              )}
            </Stack>
            <DownloadButton json={json} />
          </Group>
          {summary.categories.length === 0 ? (
            <Text>The share holds no records for the dates it covers.</Text>
          ) : (
            <ResponsiveTable
              caption={`Records per category (${zoneNote})`}
              headerLabel="Category"
              columns={[
                { key: "records", label: "Records" },
                { key: "dates", label: "Dates" },
              ]}
              rows={summary.categories.map((category) => ({
                key: category.category,
                header: category.title,
                cells: { records: category.count.toLocaleString(), dates: category.days ? formatDayRange(category.days) : "–" },
              }))}
            />
          )}
        </Stack>
      </Paper>
      {summary.categories.map((category) => (
        <CategorySection key={category.category} summary={category} zone={summary.zone} zoneNote={zoneNote} />
      ))}
    </Stack>
  );
}
