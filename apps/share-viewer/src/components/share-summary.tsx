import { Group, Paper, Stack, Table, Text, Title } from "@mantine/core";
import type { BundleSummary } from "../bundle/bundle-summary.ts";
import { formatDateTime, formatRange } from "../format.ts";
import { CategorySection } from "./category-section.tsx";
import { DownloadButton } from "./download-button.tsx";

/** The opened share: an overview per category, the download, then each category in detail. */
export function ShareSummary({ json, summary, generatedAt }: { json: string; summary: BundleSummary; generatedAt: string | null }) {
  const generated = generatedAt ? Date.parse(generatedAt) : Number.NaN;
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
                {summary.range ? `, ${formatRange(summary.range)}` : ""}.
              </Text>
              {!Number.isNaN(generated) && (
                <Text size="sm" c="dimmed">
                  Prepared {formatDateTime(generated)}.
                </Text>
              )}
            </Stack>
            <DownloadButton json={json} />
          </Group>
          {summary.categories.length === 0 ? (
            <Text>The share holds no records for the dates it covers.</Text>
          ) : (
            <Table withTableBorder captionSide="top">
              <Table.Caption>Records per category</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Category</Table.Th>
                  <Table.Th scope="col">Records</Table.Th>
                  <Table.Th scope="col">Dates</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {summary.categories.map((category) => (
                  <Table.Tr key={category.category}>
                    <Table.Th scope="row" fw={500}>
                      {category.title}
                    </Table.Th>
                    <Table.Td>{category.count.toLocaleString()}</Table.Td>
                    <Table.Td>{category.range ? formatRange(category.range) : "–"}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      </Paper>
      {summary.categories.map((category) => (
        <CategorySection key={category.category} summary={category} />
      ))}
    </Stack>
  );
}
