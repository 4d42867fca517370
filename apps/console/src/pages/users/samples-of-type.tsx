import { Stack, Text } from "@mantine/core";
import { useQuery, type UseQueryResult } from "@tanstack/react-query";
import { useMemo } from "react";
import { ChartFigure } from "../../components/chart-figure.tsx";
import { formatCount, formatTime } from "../../components/format.ts";
import { QueryState } from "../../components/query-state.tsx";
import { SectionBoundary } from "../../components/section-boundary.tsx";
import { sourceColors } from "../../components/source-colors.ts";
import { useTRPC } from "../../trpc.ts";
import { OutcomesTable } from "./outcomes-table.tsx";
import { streamOf, streamOfBucket, streamOutcomes, streamOutcomesFromStats, type Stats, type StreamOutcome } from "./sample-provenance.ts";
import { describeSpan, intervalFor, TIME_ZONE, type SampleWindow, type View } from "./sample-window.ts";
import { SamplesChart } from "./samples-chart.tsx";
import { StatsLines } from "./stats-lines.tsx";
import { statsNote } from "./stats-note.ts";
import { RAW_SAMPLES_LIMIT, useCappedSamples } from "./use-capped-samples.ts";
import { UserStatsChart } from "./user-stats-chart.tsx";

/** "from Mar 1, 2026, 9:00:00 AM to Mar 8, 2026, 9:00:00 AM (7 days)": the span a chart covers. */
const spanOf = (window: SampleWindow) => `from ${formatTime(window.start)} to ${formatTime(window.end)} (${describeSpan(window)})`;

const OUTRANKED = "Outranked: how often a kept sample of a better ranked source left a matching sample of this source out (from each kept sample's outranked list).";

const VIEW_NAMES: Record<View, string> = { all: "every source", merged: "merged (the winning source of each)" };

/**
 * One type's samples in a window. The statistics of the window (view all) count its samples
 * first: up to RAW_SAMPLES_LIMIT they are read and drawn one by one; above, the chart draws
 * the averages of the statistics over the whole window instead of cutting it, and says so.
 * "Which source won" counts exactly what the chart draws. Every chart and the table take one
 * colour per source from the sources of the window.
 */
export function SamplesOfType(props: { tenantId: string; userId: string; type: string; unit: string | null; window: SampleWindow; view: View }) {
  const { window } = props;
  if (!(Date.parse(window.start) < Date.parse(window.end))) return <Text c="red.9">The window's start must be before its end.</Text>;
  return <ValidWindow {...props} />;
}

function ValidWindow({ tenantId, userId, type, unit, window, view }: { tenantId: string; userId: string; type: string; unit: string | null; window: SampleWindow; view: View }) {
  const trpc = useTRPC();
  const interval = intervalFor(window);
  const statsOf = (statsView: View) =>
    trpc.adminMirrors.getTenantSampleStats.queryOptions({ tenant_id: tenantId, id: userId, type, start: window.start, end: window.end, interval, tz: TIME_ZONE, view: statsView });
  const overview = useQuery(statsOf("all"));
  const total = overview.data?.buckets.reduce((sum, bucket) => sum + bucket.count, 0) ?? null;
  const oneByOne = total !== null && total <= RAW_SAMPLES_LIMIT && !overview.data?.truncated;

  const base = { tenant_id: tenantId, id: userId, start: window.start, end: window.end, type: oneByOne ? type : null };
  const all = useCappedSamples({ ...base, view: "all" });
  const merged = useCappedSamples({ ...base, view: "merged" });
  const mergedStats = useQuery({ ...statsOf("merged"), enabled: total !== null && !oneByOne });

  const colors = useMemo(
    () => sourceColors([...(overview.data?.buckets.map(streamOfBucket) ?? []), ...(all.data?.samples.map(streamOf) ?? [])]),
    [overview.data, all.data],
  );
  const resetKeys = [type, window.start, window.end, view];

  return (
    <Stack>
      <SectionBoundary name="The samples chart" resetKeys={resetKeys}>
        <QueryState query={overview}>
          {() =>
            oneByOne ? (
              <OneByOne samples={view === "all" ? all : merged} view={view} unit={unit} colors={colors} window={window} />
            ) : (
              <Averages stats={view === "all" ? overview : mergedStats} total={total ?? 0} view={view} colors={colors} window={window} />
            )
          }
        </QueryState>
      </SectionBoundary>
      <SectionBoundary name="Which source won" resetKeys={resetKeys}>
        {oneByOne ? (
          <QueryState query={{ isPending: all.isPending || merged.isPending, error: all.error ?? merged.error }}>
            {() =>
              all.data &&
              merged.data && (
                <Outcomes
                  outcomes={streamOutcomes(all.data.samples, merged.data.samples)}
                  colors={colors}
                  cut={all.data.truncated || merged.data.truncated}
                  note={`Counted over every sample of the window, as the chart draws them. ${OUTRANKED}`}
                />
              )
            }
          </QueryState>
        ) : (
          <QueryState query={{ isPending: overview.isPending || mergedStats.isPending, error: overview.error ?? mergedStats.error }}>
            {() =>
              overview.data &&
              mergedStats.data && (
                <Outcomes
                  outcomes={streamOutcomesFromStats(overview.data, mergedStats.data)}
                  colors={colors}
                  cut={overview.data.truncated || mergedStats.data.truncated}
                  note={`Counted from the statistics of the whole window, as the chart draws them. Won and outranked need the samples one by one: narrow the window to at most ${formatCount(RAW_SAMPLES_LIMIT)} samples to count them.`}
                />
              )
            }
          </QueryState>
        )}
      </SectionBoundary>
      <SectionBoundary name="The statistics chart" resetKeys={resetKeys}>
        <UserStatsChart tenantId={tenantId} userId={userId} type={type} window={window} view={view} colors={colors} />
      </SectionBoundary>
    </Stack>
  );
}

type CappedQuery = ReturnType<typeof useCappedSamples>;

/** The samples of the window one by one (it holds at most RAW_SAMPLES_LIMIT). */
function OneByOne({ samples, view, unit, colors, window }: { samples: CappedQuery; view: View; unit: string | null; colors: Map<string, string>; window: SampleWindow }) {
  const count = samples.data?.samples.length ?? 0;
  const streams = new Set(samples.data?.samples.map(streamOf)).size;
  const note = [
    `${formatCount(count)} sample${count === 1 ? "" : "s"} in ${streams} series.`,
    // The window grew past the limit between counting and reading: say where the drawing stops.
    samples.data?.truncated ? `Cut: only the first ${formatCount(RAW_SAMPLES_LIMIT)} samples of the window are drawn; narrow the window to see the rest.` : "",
  ].join(" ");
  return (
    <ChartFigure title={`Samples over time, ${VIEW_NAMES[view]}`} note={note} order={5}>
      <Text size="sm" c="dimmed">
        Every sample {spanOf(window)}.
      </Text>
      <QueryState query={samples}>{() => samples.data && <SamplesChart samples={samples.data.samples} unit={unit} colors={colors} window={window} />}</QueryState>
    </ChartFigure>
  );
}

/** The window's statistics as averages per interval, for windows with too many samples to draw one by one. */
function Averages({ stats, total, view, colors, window }: { stats: UseQueryResult<Stats, unknown>; total: number; view: View; colors: Map<string, string>; window: SampleWindow }) {
  const per = stats.data?.interval ?? intervalFor(window);
  const title = `${per === "hour" ? "Hourly" : "Daily"} averages over time, ${VIEW_NAMES[view]}`;
  return (
    <ChartFigure title={title} note={stats.data ? statsNote(stats.data) : undefined} order={5}>
      <Text size="sm" c="dimmed">
        {formatCount(total)} samples {spanOf(window)} (every source), more than the {formatCount(RAW_SAMPLES_LIMIT)} drawn one by one: each point is the
        average of one {per}.
      </Text>
      <QueryState query={stats}>{() => stats.data && <StatsLines stats={stats.data} metric="avg" colors={colors} legendName="Sources" />}</QueryState>
    </ChartFigure>
  );
}

function Outcomes({ outcomes, colors, cut, note }: { outcomes: StreamOutcome[]; colors: Map<string, string>; cut: boolean; note: string }) {
  return <OutcomesTable outcomes={outcomes} colors={colors} note={cut ? `${note} The window was cut: counted over what was read.` : note} />;
}
