import { LineChart } from "@mantine/charts";
import { Box, Paper, Stack, Text, Title } from "@mantine/core";
import { useIntersection } from "@mantine/hooks";
import { useEffect, useId, useState } from "react";
import type { MeasureChart as Chart } from "../bundle/bundle-summary.ts";
import { dayOfNumber } from "../bundle/days.ts";
import { formatDateTime, formatDayNumber, formatNumber, formatPlainDate, formatShortDateAt } from "../format.ts";

const COLORS = ["blue.8", "orange.8", "teal.8", "grape.8"];

const CHART_HEIGHT = 220;

/** Whether the element has come near the screen once (charts are drawn then, not all at first). */
function useSeen<T extends HTMLElement>() {
  const { ref, entry } = useIntersection<T>({ rootMargin: "400px 0px" });
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    if (entry?.isIntersecting) setSeen(true);
  }, [entry]);
  return { ref, seen };
}

/**
 * A measure over days or time, in a <figure> named by its heading; its caption says what the
 * points are and in which zone the days and times are. The tables below give values as text.
 * The chart itself is drawn once the figure nears the screen: a share has dozens of them, and
 * drawing them all at once kept a phone busy for seconds before the first one showed.
 */
export function MeasureChart({ title, chart, zone, zoneNote }: { title: string; chart: Chart; zone: string; zoneNote: string }) {
  const id = useId();
  const { ref, seen } = useSeen<HTMLDivElement>();
  const first = chart.points[0]!.x!;
  const last = chart.points[chart.points.length - 1]!.x!;
  const byDay = chart.axis === "day";
  const label = (value: number) => (byDay ? formatPlainDate(dayOfNumber(value)) : formatDateTime(value, zone));
  const tick = (value: number) => (byDay ? formatDayNumber(value) : last - first > 2 * 86_400_000 ? formatShortDateAt(value, zone) : formatDateTime(value, zone));
  return (
    <Paper withBorder p="sm" component="figure" m={0} aria-labelledby={id}>
      <Stack gap="xs">
        <Title order={4} size="h5" id={id}>
          {title}
          {chart.unit ? ` (${chart.unit})` : ""}
        </Title>
        <Box ref={ref} h={CHART_HEIGHT}>
          {seen && (
            <LineChart
              h={CHART_HEIGHT}
              data={chart.points}
              dataKey="x"
              series={chart.lines.map((line, i) => ({ name: line.name, label: line.label, color: COLORS[i % COLORS.length]! }))}
              withLegend={chart.lines.length > 1}
              curveType="linear"
              connectNulls
              withDots={chart.points.length <= 60}
              tooltipAnimationDuration={0}
              valueFormatter={(value) => formatNumber(value, 1)}
              xAxisProps={{ type: "number", scale: byDay ? "linear" : "time", domain: [first, last], tickFormatter: tick, allowDecimals: !byDay }}
              yAxisProps={{ domain: chart.fromZero ? [0, "auto"] : ["auto", "auto"] }}
              tooltipProps={{ labelFormatter: (value: unknown) => (typeof value === "number" ? label(value) : String(value)) }}
              lineProps={{ isAnimationActive: false }}
            />
          )}
        </Box>
        <Text size="sm" c="dimmed" component="figcaption">
          {chart.points.length} {chart.pointsAre} from {label(first)} to {label(last)}, {zoneNote}.
        </Text>
      </Stack>
    </Paper>
  );
}
