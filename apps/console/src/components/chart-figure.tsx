import { Paper, Stack, Text, Title } from "@mantine/core";
import { useId, type ReactNode } from "react";

/** A chart in a <figure> named by its heading, with an optional note under it (e.g. "truncated"). */
export function ChartFigure({ title, note, children, order = 4 }: { title: string; note?: ReactNode; children: ReactNode; order?: 3 | 4 | 5 }) {
  const id = useId();
  return (
    <Paper withBorder p="sm" component="figure" m={0} aria-labelledby={id}>
      <Stack gap="xs">
        <Title order={order} size="h5" id={id}>
          {title}
        </Title>
        {children}
        {note && (
          <Text size="sm" c="dimmed" component="figcaption">
            {note}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
