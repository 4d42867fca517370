import { ScatterChart } from "@mantine/charts";
import { Group, NativeSelect, SegmentedControl, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { ChartFigure } from "../../components/chart-figure.tsx";
import { formatAxisTime, formatCount, formatTime, fromLocalInput, toLocalInput } from "../../components/format.ts";
import { ProblemAlert, QueryState } from "../../components/query-state.tsx";
import { useTRPC } from "../../trpc.ts";
import { SERIES_COLORS, streamOf, streamOutcomes, type Sample } from "./sample-provenance.ts";
import { MAX_PAGES, PAGE_SIZE, useCappedSamples } from "./use-capped-samples.ts";
import { UserStatsChart } from "./user-stats-chart.tsx";

const DAY_MS = 86_400_000;

export type View = "all" | "merged";

interface Window {
  start: string;
  end: string;
}

/** The last 7 days before the type's last sample (end just after it, exclusive). */
function defaultWindow(lastStart: string): Window {
  const end = Date.parse(lastStart) + 60_000;
  return { start: new Date(end - 7 * DAY_MS).toISOString(), end: new Date(end).toISOString() };
}

/** The user's samples of one quantity type: per source or merged, which source won, and stats. */
export function UserSamplesSection({ tenantId, userId }: { tenantId: string; userId: string }) {
  const trpc = useTRPC();
  const types = useQuery(trpc.adminMirrors.listTenantSampleTypes.queryOptions({ tenant_id: tenantId, id: userId }));
  const [type, setType] = useState<string | null>(null);
  const [window, setWindow] = useState<Window | null>(null);
  const [view, setView] = useState<View>("all");
  const selected = types.data?.data.find((t) => t.type === type) ?? null;

  const pick = (value: string) => {
    const next = types.data?.data.find((t) => t.type === value);
    setType(next ? next.type : null);
    setWindow(next ? defaultWindow(next.last_start) : null);
  };

  return (
    <Stack component="section" aria-labelledby="samples-heading">
      <Title order={4} id="samples-heading">
        Samples
      </Title>
      <QueryState query={types}>
        {() =>
          types.data && types.data.data.length === 0 ? (
            <Text c="dimmed">The user has no quantity samples.</Text>
          ) : (
            <Group align="end" wrap="wrap">
              <NativeSelect
                label="Quantity type"
                value={type ?? ""}
                onChange={(event) => pick(event.currentTarget.value)}
                data={[
                  { value: "", label: "Pick a type" },
                  ...(types.data?.data ?? []).map((t) => ({ value: t.type, label: `${t.type}${t.unit ? ` (${t.unit})` : ""}` })),
                ]}
                w={260}
              />
              {window && (
                <>
                  <TextInput
                    label="From"
                    type="datetime-local"
                    value={toLocalInput(window.start)}
                    onChange={(event) => {
                      const start = fromLocalInput(event.currentTarget.value);
                      if (start) setWindow({ ...window, start });
                    }}
                  />
                  <TextInput
                    label="To (exclusive)"
                    type="datetime-local"
                    value={toLocalInput(window.end)}
                    onChange={(event) => {
                      const end = fromLocalInput(event.currentTarget.value);
                      if (end) setWindow({ ...window, end });
                    }}
                  />
                  <SegmentedControl
                    aria-label="View"
                    value={view}
                    onChange={(value) => setView(value as View)}
                    data={[
                      { value: "all", label: "Every source" },
                      { value: "merged", label: "Merged" },
                    ]}
                  />
                </>
              )}
            </Group>
          )
        }
      </QueryState>
      {selected && (
        <Text size="sm" c="dimmed">
          {selected.type}: samples from {formatTime(selected.first_start)} to {formatTime(selected.last_start)}, from {selected.providers.join(", ")}.
        </Text>
      )}
      {selected && window && (
        <SamplesOfType tenantId={tenantId} userId={userId} type={selected.type} unit={selected.unit} window={window} view={view} />
      )}
    </Stack>
  );
}

function SamplesOfType({ tenantId, userId, type, unit, window, view }: { tenantId: string; userId: string; type: string; unit: string | null; window: Window; view: View }) {
  const valid = Date.parse(window.start) < Date.parse(window.end);
  const base = { tenant_id: tenantId, id: userId, type: valid ? type : null, start: window.start, end: window.end };
  const all = useCappedSamples({ ...base, view: "all" });
  const merged = useCappedSamples({ ...base, view: "merged" });
  if (!valid) return <Text c="red.9">The window's start must be before its end.</Text>;
  const shown = view === "all" ? all : merged;
  return (
    <Stack>
      <QueryState query={shown}>
        {() => shown.data && <SamplesChart samples={shown.data.samples} truncated={shown.data.truncated} view={view} unit={unit} />}
      </QueryState>
      {all.error || merged.error ? (
        <ProblemAlert error={all.error ?? merged.error} />
      ) : all.data && merged.data ? (
        <OutcomesTable all={all.data.samples} merged={merged.data.samples} truncated={all.data.truncated || merged.data.truncated} />
      ) : null}
      <UserStatsChart tenantId={tenantId} userId={userId} type={type} window={window} view={view} />
    </Stack>
  );
}

function SamplesChart({ samples, truncated, view, unit }: { samples: Sample[]; truncated: boolean; view: View; unit: string | null }) {
  const series = useMemo(() => {
    const byStream = new Map<string, Array<{ time: number; value: number }>>();
    for (const sample of samples) {
      const stream = streamOf(sample);
      let points = byStream.get(stream);
      if (!points) byStream.set(stream, (points = []));
      points.push({ time: Date.parse(sample.start_date), value: sample.value });
    }
    return [...byStream.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, data], index) => ({ name, data, color: SERIES_COLORS[index % SERIES_COLORS.length]! }));
  }, [samples]);
  const title = view === "all" ? "Samples over time, every source" : "Samples over time, merged (the winning source of each)";
  const note = [
    `${formatCount(samples.length)} sample${samples.length === 1 ? "" : "s"} in ${series.length} series.`,
    truncated ? `Truncated: only the first ${formatCount(MAX_PAGES * PAGE_SIZE)} samples of the window are shown; narrow the window to see the rest.` : "",
  ].join(" ");
  return (
    <ChartFigure title={title} note={note} order={5}>
      {samples.length === 0 ? (
        <Text c="dimmed">No samples in this window.</Text>
      ) : (
        <ScatterChart
          h={280}
          data={series}
          dataKey={{ x: "time", y: "value" }}
          labels={{ x: "Start", y: unit ?? "Value" }}
          withLegend
          valueFormatter={{ x: formatAxisTime }}
          xAxisProps={{ type: "number", domain: ["dataMin", "dataMax"], scale: "time" }}
          tooltipAnimationDuration={0}
        />
      )}
    </ChartFigure>
  );
}

function OutcomesTable({ all, merged, truncated }: { all: Sample[]; merged: Sample[]; truncated: boolean }) {
  const outcomes = useMemo(() => streamOutcomes(all, merged), [all, merged]);
  return (
    <Stack gap="xs" component="section" aria-labelledby="winners-heading">
      <Title order={5} id="winners-heading">
        Merged view: which source won
      </Title>
      <Table.ScrollContainer minWidth={560}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Source (provider/source)</Table.Th>
              <Table.Th scope="col">Samples</Table.Th>
              <Table.Th scope="col">Kept in merged view</Table.Th>
              <Table.Th scope="col">Won over another source</Table.Th>
              <Table.Th scope="col">Outranked</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {outcomes.map((outcome) => (
              <Table.Tr key={outcome.stream}>
                <Table.Th scope="row" fw={500}>
                  {outcome.stream}
                </Table.Th>
                <Table.Td>{formatCount(outcome.samples)}</Table.Td>
                <Table.Td>{formatCount(outcome.kept)}</Table.Td>
                <Table.Td>{formatCount(outcome.won)}</Table.Td>
                <Table.Td>{formatCount(outcome.outranked)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="xs" c="dimmed">
        Outranked: how often a kept sample of a better ranked source left a matching sample of this source out (from each kept sample's
        outranked list).{truncated ? " Counted over the samples read (the window was truncated)." : ""}
      </Text>
    </Stack>
  );
}
