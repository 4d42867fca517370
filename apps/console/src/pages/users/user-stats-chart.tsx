import { LineChart } from "@mantine/charts";
import { Group, SegmentedControl, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { ChartFigure } from "../../components/chart-figure.tsx";
import type { MirrorOutputs } from "../../components/mirror-outputs.ts";
import { QueryState } from "../../components/query-state.tsx";
import { useTRPC } from "../../trpc.ts";
import { SERIES_COLORS } from "./sample-provenance.ts";

type Stats = MirrorOutputs["getTenantSampleStats"];
type Metric = "avg" | "sum" | "min" | "max" | "count";
type Interval = "hour" | "day";

const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** Statistics per hour or local day, one series per provider, source, device and unit (or merged). */
export function UserStatsChart({
  tenantId,
  userId,
  type,
  window,
  view,
}: {
  tenantId: string;
  userId: string;
  type: string;
  window: { start: string; end: string };
  view: "all" | "merged";
}) {
  const trpc = useTRPC();
  const longWindow = Date.parse(window.end) - Date.parse(window.start) > 3 * 86_400_000;
  const [interval, chooseInterval] = useState<Interval | null>(null);
  const [metric, setMetric] = useState<Metric>("avg");
  const chosen: Interval = interval ?? (longWindow ? "day" : "hour");
  const stats = useQuery(
    trpc.adminMirrors.getTenantSampleStats.queryOptions({
      tenant_id: tenantId,
      id: userId,
      type,
      start: window.start,
      end: window.end,
      interval: chosen,
      tz: TIME_ZONE,
      view,
    }),
  );
  return (
    <ChartFigure
      order={5}
      title={`Statistics per ${chosen} (${view === "all" ? "every source" : "merged"})`}
      note={stats.data?.truncated ? "Truncated: more than 50,000 samples matched; the intervals hold the earliest 50,000." : `Intervals in ${TIME_ZONE}.`}
    >
      <Group>
        <SegmentedControl
          aria-label="Interval"
          value={chosen}
          onChange={(value) => chooseInterval(value as Interval)}
          data={[
            { value: "hour", label: "Per hour" },
            { value: "day", label: "Per day" },
          ]}
        />
        <SegmentedControl
          aria-label="Statistic"
          value={metric}
          onChange={(value) => setMetric(value as Metric)}
          data={[
            { value: "avg", label: "Average" },
            { value: "min", label: "Min" },
            { value: "max", label: "Max" },
            { value: "sum", label: "Sum" },
            { value: "count", label: "Count" },
          ]}
        />
      </Group>
      <QueryState query={stats}>{() => stats.data && <StatsLines stats={stats.data} metric={metric} />}</QueryState>
    </ChartFigure>
  );
}

function StatsLines({ stats, metric }: { stats: Stats; metric: Metric }) {
  const { data, series } = useMemo(() => {
    // recharts reads a dataKey with dots as a path: series get plain keys, their names go in labels.
    const keys = new Map<string, string>();
    const rows = new Map<string, Record<string, number | string>>();
    for (const bucket of stats.buckets) {
      const name = [bucket.provider, bucket.source, bucket.device, bucket.unit].filter(Boolean).join(" / ");
      let key = keys.get(name);
      if (!key) keys.set(name, (key = `s${keys.size}`));
      let row = rows.get(bucket.start);
      if (!row) rows.set(bucket.start, (row = { start: bucket.start, label: formatBucket(bucket.start, stats.interval) }));
      row[key] = bucket[metric];
    }
    return {
      data: [...rows.values()],
      series: [...keys.entries()].map(([label, name], index) => ({ name, label, color: SERIES_COLORS[index % SERIES_COLORS.length]! })),
    };
  }, [stats, metric]);
  if (data.length === 0) return <Text c="dimmed">No samples in this window.</Text>;
  return <LineChart h={260} data={data} dataKey="label" series={series} withLegend connectNulls curveType="linear" tooltipAnimationDuration={0} />;
}

function formatBucket(start: string, interval: Interval): string {
  const date = new Date(start);
  return interval === "day"
    ? date.toLocaleDateString(undefined, { month: "short", day: "numeric" })
    : date.toLocaleString(undefined, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
}
