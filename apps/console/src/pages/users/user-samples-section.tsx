import { Group, NativeSelect, SegmentedControl, Stack, Text, TextInput, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { formatTime, fromLocalInput, toLocalInput } from "../../components/format.ts";
import { QueryState } from "../../components/query-state.tsx";
import { SectionBoundary } from "../../components/section-boundary.tsx";
import { useTRPC } from "../../trpc.ts";
import { defaultWindow, type SampleWindow, type View } from "./sample-window.ts";
import { SamplesOfType } from "./samples-of-type.tsx";

/** The user's samples of one quantity type: per source or merged, which source won, and stats. */
export function UserSamplesSection({ tenantId, userId }: { tenantId: string; userId: string }) {
  const trpc = useTRPC();
  const types = useQuery(trpc.adminMirrors.listTenantSampleTypes.queryOptions({ tenant_id: tenantId, id: userId }));
  const [type, setType] = useState<string | null>(null);
  const [window, setWindow] = useState<SampleWindow | null>(null);
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
        <SectionBoundary name={`The samples of ${selected.type}`} resetKeys={[selected.type, window.start, window.end, view]}>
          <SamplesOfType tenantId={tenantId} userId={userId} type={selected.type} unit={selected.unit} window={window} view={view} />
        </SectionBoundary>
      )}
    </Stack>
  );
}
