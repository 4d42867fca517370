import { ColorSwatch, Group, Stack, Table, Text, Title } from "@mantine/core";
import { formatCount } from "../../components/format.ts";
import { colorOf, cssColor } from "../../components/source-colors.ts";
import type { StreamOutcome } from "./sample-provenance.ts";

/** Which source the merged view kept, per source, counted over exactly what the chart above shows. */
export function OutcomesTable({ outcomes, colors, note }: { outcomes: StreamOutcome[]; colors: Map<string, string>; note: string }) {
  const count = (value: number | null) => (value === null ? "—" : formatCount(value));
  return (
    <Stack gap="xs" component="section" aria-labelledby="winners-heading">
      <Title order={5} id="winners-heading">
        Merged view: which source won
      </Title>
      <Table.ScrollContainer minWidth={560}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Source (provider/source)</Table.Th>
              <Table.Th scope="col">Samples</Table.Th>
              <Table.Th scope="col">Kept in merged view</Table.Th>
              <Table.Th scope="col">Won over another source</Table.Th>
              <Table.Th scope="col">Outranked</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {outcomes.map((outcome) => (
              <Table.Tr key={outcome.stream}>
                <Table.Th scope="row" fw={500}>
                  <Group gap={6} wrap="nowrap">
                    <ColorSwatch color={cssColor(colorOf(colors, outcome.stream))} size={12} withShadow={false} aria-hidden />
                    {outcome.stream}
                  </Group>
                </Table.Th>
                <Table.Td>{count(outcome.samples)}</Table.Td>
                <Table.Td>{count(outcome.kept)}</Table.Td>
                <Table.Td>{count(outcome.won)}</Table.Td>
                <Table.Td>{count(outcome.outranked)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="xs" c="dimmed">
        {note}
      </Text>
    </Stack>
  );
}
