import { Box, Paper, Stack, Table, Text } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { useId, type ReactNode } from "react";

export interface TableColumn {
  key: string;
  label: string;
}

export interface TableRow {
  key: string;
  /** What the row is about (its row header): a measure, a category, a time. */
  header: ReactNode;
  cells: Record<string, ReactNode>;
}

/** Below this width (Mantine's `sm`) rows are stacked: a phone has no room for columns. */
export const PHONE_QUERY = "(max-width: 47.99em)";

/**
 * A table on wide screens; on phones each row is a card of `label: value` lines, so nothing
 * scrolls sideways. Both are named by the caption (the table's caption, the list's label).
 */
export function ResponsiveTable({ caption, headerLabel, columns, rows }: { caption: string; headerLabel: string; columns: TableColumn[]; rows: TableRow[] }) {
  const phone = useMediaQuery(PHONE_QUERY, false, { getInitialValueInEffect: false });
  const captionId = useId();
  if (phone) {
    return (
      <Stack gap="xs">
        <Text id={captionId} size="sm" c="dimmed">
          {caption}
        </Text>
        <Stack component="ul" aria-labelledby={captionId} gap="xs" m={0} p={0} style={{ listStyle: "none" }}>
          {rows.map((row) => (
            <Paper component="li" key={row.key} withBorder p="sm">
              <Text fw={600} size="sm">
                {row.header}
              </Text>
              <Box component="dl" m={0} mt={4}>
                {columns.map((column) => (
                  <Box key={column.key} style={{ display: "flex", gap: "0.5rem", flexWrap: "wrap" }}>
                    <Text component="dt" size="sm" c="dimmed">
                      {column.label}:
                    </Text>
                    <Text component="dd" size="sm" m={0} style={{ overflowWrap: "anywhere" }}>
                      {row.cells[column.key]}
                    </Text>
                  </Box>
                ))}
              </Box>
            </Paper>
          ))}
        </Stack>
      </Stack>
    );
  }
  return (
    <Table striped withTableBorder captionSide="top">
      <Table.Caption>{caption}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{headerLabel}</Table.Th>
          {columns.map((column) => (
            <Table.Th scope="col" key={column.key}>
              {column.label}
            </Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {rows.map((row) => (
          <Table.Tr key={row.key}>
            <Table.Th scope="row" fw={500}>
              {row.header}
            </Table.Th>
            {columns.map((column) => (
              <Table.Td key={column.key}>{row.cells[column.key]}</Table.Td>
            ))}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
