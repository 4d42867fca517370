import { LineChart } from "@mantine/charts";
import { Stack, Text } from "@mantine/core";
import { useMemo } from "react";
import { formatAxisTime } from "../../components/format.ts";
import { SeriesLegend } from "../../components/series-legend.tsx";
import { colorOf } from "../../components/source-colors.ts";
import { paddedDomain } from "../../components/value-domain.ts";
import { streamOfBucket, type Stats } from "./sample-provenance.ts";

export type Metric = "avg" | "sum" | "min" | "max" | "count";

/**
 * Statistics as lines over time, one per provider, source, device and unit, coloured by
 * source (a source's second device dashed). Averages, minima and maxima get a value axis
 * fitted to the data; sums and counts are amounts and start at 0.
 */
export function StatsLines({ stats, metric, colors, legendName }: { stats: Stats; metric: Metric; colors: Map<string, string>; legendName: string }) {
  const { data, series } = useMemo(() => {
    // recharts reads a dataKey with dots as a path: series get plain keys, their names go in labels.
    const keys = new Map<string, { name: string; label: string; color: string; strokeDasharray?: string }>();
    const devicesOf = new Map<string, number>();
    const rows = new Map<number, Record<string, number>>();
    for (const bucket of stats.buckets) {
      const label = [streamOfBucket(bucket), bucket.device, bucket.unit].filter(Boolean).join(" / ");
      let entry = keys.get(label);
      if (!entry) {
        const stream = streamOfBucket(bucket);
        const nth = devicesOf.get(stream) ?? 0;
        devicesOf.set(stream, nth + 1);
        entry = { name: `s${keys.size}`, label, color: colorOf(colors, stream), ...(nth > 0 && { strokeDasharray: "6 4" }) };
        keys.set(label, entry);
      }
      const time = Date.parse(bucket.start);
      let row = rows.get(time);
      if (!row) rows.set(time, (row = { time }));
      row[entry.name] = bucket[metric];
    }
    return { data: [...rows.values()].sort((a, b) => a.time! - b.time!), series: [...keys.values()] };
  }, [stats, metric, colors]);
  if (data.length === 0) return <Text c="dimmed">No samples in this window.</Text>;
  const amounts = metric === "sum" || metric === "count";
  const domain = amounts ? undefined : paddedDomain(stats.buckets.map((bucket) => bucket[metric]));
  return (
    <Stack gap="xs">
      <SeriesLegend name={legendName} items={series.map((s) => ({ label: s.label, color: s.color, dashed: s.strokeDasharray !== undefined }))} />
      <LineChart
        h={260}
        data={data}
        dataKey="time"
        series={series}
        connectNulls
        curveType="linear"
        withDots={data.length <= 60}
        tooltipAnimationDuration={0}
        xAxisProps={{ type: "number", scale: "time", domain: [Date.parse(stats.start), Date.parse(stats.end)], tickFormatter: formatAxisTime }}
        yAxisProps={domain ? { domain, allowDataOverflow: false } : undefined}
        tooltipProps={{ labelFormatter: (time) => formatAxisTime(Number(time)) }}
      />
    </Stack>
  );
}
