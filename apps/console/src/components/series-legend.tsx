import { ColorSwatch, Group, Text } from "@mantine/core";
import { cssColor } from "./source-colors.ts";

export interface LegendItem {
  label: string;
  color: string;
  /** Drawn dashed in the chart (a second device of one source). */
  dashed?: boolean;
}

/**
 * A chart's legend drawn from the series the page computed, not from the chart library's
 * own legend: recharts hands Mantine's scatter legend the previous render's entries, which
 * it looks up by index in the new series and crashed on when there were fewer.
 */
export function SeriesLegend({ items, name }: { items: LegendItem[]; name: string }) {
  if (items.length === 0) return null;
  return (
    <Group component="ul" aria-label={name} gap="md" m={0} p={0} style={{ listStyle: "none" }}>
      {items.map((item) => (
        <Group component="li" key={item.label} gap={6} wrap="nowrap">
          <ColorSwatch color={cssColor(item.color)} size={12} withShadow={false} aria-hidden />
          <Text size="sm">
            {item.label}
            {item.dashed ? " (dashed)" : ""}
          </Text>
        </Group>
      ))}
    </Group>
  );
}
