import { Table } from "@mantine/core";
import type { MeasureSummary } from "../bundle/bundle-summary.ts";
import { formatDateTime } from "../format.ts";

/** The latest records of a kind with several figures (sleep, workouts, daily summaries...), newest first. */
export function RecentRecordsTable({ measure }: { measure: MeasureSummary }) {
  return (
    <Table.ScrollContainer minWidth={520}>
      <Table striped withTableBorder captionSide="top">
        <Table.Caption>
          {measure.name}: {measure.recent.length < measure.count ? `latest ${measure.recent.length} of ${measure.count}` : "all records"}
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">When</Table.Th>
            <Table.Th scope="col">Details</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {measure.recent.map((record) => (
            <Table.Tr key={record.id}>
              <Table.Td>{record.at === null ? "–" : formatDateTime(record.at)}</Table.Td>
              <Table.Td>{record.text}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
