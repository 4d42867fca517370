import { Paper, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import type { ReactNode } from "react";

export interface Stat {
  label: string;
  value: ReactNode;
  /** A count that needs attention when above zero (shown in red). */
  alert?: boolean;
}

/** A titled card of labelled figures (a description list), e.g. one stage of the pipeline. */
export function StatCard({ title, stats, order = 4 }: { title: string; stats: Stat[]; order?: 3 | 4 | 5 }) {
  return (
    <Paper withBorder p="sm" component="section" aria-label={title}>
      <Stack gap="xs">
        <Title order={order} size="h5">
          {title}
        </Title>
        <SimpleGrid cols={2} spacing="xs" verticalSpacing={4} component="dl" m={0}>
          {stats.map((stat) => (
            <div key={stat.label}>
              <Text component="dt" size="xs" c="dimmed">
                {stat.label}
              </Text>
              <Text component="dd" m={0} fw={600} c={stat.alert ? "red.9" : undefined}>
                {stat.value}
              </Text>
            </div>
          ))}
        </SimpleGrid>
      </Stack>
    </Paper>
  );
}
