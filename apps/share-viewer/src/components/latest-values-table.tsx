import { Table } from "@mantine/core";
import type { MeasureSummary } from "../bundle/bundle-summary.ts";
import { formatDateTime, formatRange } from "../format.ts";

/** One row per measure of a category: its latest value, when, how many and over which dates. */
export function LatestValuesTable({ caption, measures }: { caption: string; measures: MeasureSummary[] }) {
  return (
    <Table.ScrollContainer minWidth={640}>
      <Table striped withTableBorder captionSide="top">
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Measure</Table.Th>
            <Table.Th scope="col">Latest</Table.Th>
            <Table.Th scope="col">Taken</Table.Th>
            <Table.Th scope="col">Records</Table.Th>
            <Table.Th scope="col">Dates</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {measures.map((measure) => (
            <Table.Tr key={measure.key}>
              <Table.Th scope="row" fw={500}>
                {measure.name}
              </Table.Th>
              <Table.Td>{measure.latest.text}</Table.Td>
              <Table.Td>{measure.latest.at === null ? "–" : formatDateTime(measure.latest.at)}</Table.Td>
              <Table.Td>{measure.count.toLocaleString()}</Table.Td>
              <Table.Td>{measure.range ? formatRange(measure.range) : "–"}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
