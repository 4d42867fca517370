import { Group, SegmentedControl } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { ChartFigure } from "../../components/chart-figure.tsx";
import { QueryState } from "../../components/query-state.tsx";
import { useTRPC } from "../../trpc.ts";
import { intervalFor, TIME_ZONE, type Interval, type SampleWindow, type View } from "./sample-window.ts";
import { StatsLines, type Metric } from "./stats-lines.tsx";
import { statsNote } from "./stats-note.ts";

/** Statistics per hour or local day, one series per provider, source, device and unit (or merged). */
export function UserStatsChart({
  tenantId,
  userId,
  type,
  window,
  view,
  colors,
}: {
  tenantId: string;
  userId: string;
  type: string;
  window: SampleWindow;
  view: View;
  colors: Map<string, string>;
}) {
  const trpc = useTRPC();
  const [interval, chooseInterval] = useState<Interval | null>(null);
  const [metric, setMetric] = useState<Metric>("avg");
  const chosen: Interval = interval ?? intervalFor(window);
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
    <ChartFigure order={5} title={`Statistics per ${chosen} (${view === "all" ? "every source" : "merged"})`} note={stats.data ? statsNote(stats.data) : undefined}>
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
      <QueryState query={stats}>{() => stats.data && <StatsLines stats={stats.data} metric={metric} colors={colors} legendName="Series" />}</QueryState>
    </ChartFigure>
  );
}
