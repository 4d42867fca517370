import { ScatterChart } from "@mantine/charts";
import { Stack, Text } from "@mantine/core";
import { useMemo } from "react";
import { formatAxisTime } from "../../components/format.ts";
import { SeriesLegend } from "../../components/series-legend.tsx";
import { colorOf } from "../../components/source-colors.ts";
import { paddedDomain } from "../../components/value-domain.ts";
import { streamOf, type Sample } from "./sample-provenance.ts";
import type { SampleWindow } from "./sample-window.ts";

/**
 * Samples one by one, one colour per source, over the whole window. The legend is drawn from
 * these series (see SeriesLegend): Mantine's scatter legend crashed when the series count
 * dropped (two sources, then Merged with one).
 */
export function SamplesChart({ samples, unit, colors, window }: { samples: Sample[]; unit: string | null; colors: Map<string, string>; window: SampleWindow }) {
  const series = useMemo(() => {
    const byStream = new Map<string, Array<{ time: number; value: number }>>();
    for (const sample of samples) {
      const stream = streamOf(sample);
      let points = byStream.get(stream);
      if (!points) byStream.set(stream, (points = []));
      points.push({ time: Date.parse(sample.start_date), value: sample.value });
    }
    return [...byStream.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([name, data]) => ({ name, data, color: colorOf(colors, name) }));
  }, [samples, colors]);
  const domain = useMemo(() => paddedDomain(samples.map((sample) => sample.value)), [samples]);
  if (samples.length === 0) return <Text c="dimmed">No samples in this window.</Text>;
  return (
    <Stack gap="xs">
      <SeriesLegend name="Sources" items={series.map((s) => ({ label: s.name, color: s.color }))} />
      <ScatterChart
        h={280}
        data={series}
        dataKey={{ x: "time", y: "value" }}
        labels={{ x: "Start", y: unit ?? "Value" }}
        valueFormatter={{ x: formatAxisTime }}
        xAxisProps={{ type: "number", domain: [Date.parse(window.start), Date.parse(window.end)], scale: "time" }}
        yAxisProps={domain ? { domain } : undefined}
        tooltipAnimationDuration={0}
      />
    </Stack>
  );
}
