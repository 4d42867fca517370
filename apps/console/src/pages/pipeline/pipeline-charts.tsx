import { BarChart, LineChart } from "@mantine/charts";
import { Text } from "@mantine/core";
import { ChartFigure } from "../../components/chart-figure.tsx";
import type { MirrorOutputs } from "../../components/mirror-outputs.ts";
import type { QueuePoint } from "./pipeline-history.ts";

type Pipeline = MirrorOutputs["getTenantPipeline"];

const QUEUE_SERIES = [
  { name: "sync_queued", label: "Sync queued", color: "blue.8" },
  { name: "sync_running", label: "Sync running", color: "teal.8" },
  { name: "processing_pending", label: "Processing pending", color: "grape.8" },
  { name: "delivery_pending", label: "Delivery pending", color: "orange.8" },
];

/** Queue depths over the answers seen since the page opened. */
export function QueueDepthChart({ points }: { points: QueuePoint[] }) {
  const data = points.map((point) => ({ ...point, time: new Date(point.at).toLocaleTimeString() }));
  return (
    <ChartFigure title="Queue depths" note={`${points.length} reading${points.length === 1 ? "" : "s"} since this page opened; kept only while it stays open.`}>
      <LineChart h={220} data={data} dataKey="time" series={QUEUE_SERIES} withLegend curveType="linear" withDots={points.length < 30} tooltipAnimationDuration={0} />
    </ChartFigure>
  );
}

/** The tenant's connections by status, one bar per source with any. */
export function ConnectionsChart({ sources }: { sources: Pipeline["sources"] }) {
  const data = sources
    .filter((source) => source.connections.active + source.connections.needs_reauth + source.connections.disconnected > 0)
    .map((source) => ({ source: source.name, ...source.connections }));
  return (
    <ChartFigure title="Connections by status per source">
      {data.length === 0 ? (
        <Text size="sm" c="dimmed">
          No connections yet.
        </Text>
      ) : null}
      <BarChart
        h={220}
        data={data}
        dataKey="source"
        type="stacked"
        withLegend
        tooltipAnimationDuration={0}
        series={[
          { name: "active", label: "Active", color: "green.8" },
          { name: "needs_reauth", label: "Needs reauth", color: "orange.8" },
          { name: "disconnected", label: "Disconnected", color: "gray.6" },
        ]}
      />
    </ChartFigure>
  );
}
