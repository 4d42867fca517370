import { LineChart } from "@mantine/charts";
import { Paper, Stack, Text, Title } from "@mantine/core";
import { useId } from "react";
import type { MeasureChart as Chart } from "../bundle/bundle-summary.ts";
import { formatDateTime, formatNumber, formatShortDate } from "../format.ts";

const COLORS = ["blue.8", "orange.8", "teal.8", "grape.8"];

/** A measure over time, in a <figure> named by its heading; the tables below give the values as text. */
export function MeasureChart({ title, chart }: { title: string; chart: Chart }) {
  const id = useId();
  const first = chart.points[0]!.t!;
  const last = chart.points[chart.points.length - 1]!.t!;
  const span = last - first;
  return (
    <Paper withBorder p="sm" component="figure" m={0} aria-labelledby={id}>
      <Stack gap="xs">
        <Title order={4} size="h5" id={id}>
          {title}
          {chart.unit ? ` (${chart.unit})` : ""}
        </Title>
        <LineChart
          h={220}
          data={chart.points}
          dataKey="t"
          series={chart.lines.map((line, i) => ({ name: line.name, label: line.label, color: COLORS[i % COLORS.length]! }))}
          withLegend={chart.lines.length > 1}
          curveType="linear"
          connectNulls
          withDots={chart.points.length <= 60}
          tooltipAnimationDuration={0}
          valueFormatter={(value) => formatNumber(value, 1)}
          xAxisProps={{
            type: "number",
            scale: "time",
            domain: [first, last],
            tickFormatter: (value: number) => (span > 2 * 86_400_000 ? formatShortDate(value) : formatDateTime(value)),
          }}
          yAxisProps={{ domain: ["auto", "auto"] }}
          tooltipProps={{ labelFormatter: (value: unknown) => (typeof value === "number" ? formatDateTime(value) : String(value)) }}
        />
        <Text size="sm" c="dimmed" component="figcaption">
          {chart.points.length} {chart.daily ? "daily averages" : "values"} from {formatDateTime(first)} to {formatDateTime(last)}.
        </Text>
      </Stack>
    </Paper>
  );
}
