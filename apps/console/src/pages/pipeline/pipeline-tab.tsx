import { Button, Group, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { AvailabilityBadge } from "../../components/availability-badge.tsx";
import { availabilityOf, type ProviderAvailability } from "../../components/provider-availability.ts";
import { SectionBoundary } from "../../components/section-boundary.tsx";
import { formatBytes, formatCount, formatTime } from "../../components/format.ts";
import type { MirrorOutputs } from "../../components/mirror-outputs.ts";
import { QueryState } from "../../components/query-state.tsx";
import { StatCard } from "../../components/stat-card.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import { useTenantId } from "../../layout/tenant-layout.tsx";
import { useTRPC } from "../../trpc.ts";
import { ConnectionsChart, QueueDepthChart } from "./pipeline-charts.tsx";
import { useQueueHistory, type QueuePoint } from "./pipeline-history.ts";

const POLL_MS = 5_000;

/** The tenant's pipeline as a live dashboard: counts polled every 5 s, queue depths plotted. */
export function PipelineTab() {
  const tenant_id = useTenantId();
  const trpc = useTRPC();
  const [paused, setPaused] = useState(false);
  const query = useQuery({ ...trpc.adminMirrors.getTenantPipeline.queryOptions({ tenant_id }), refetchInterval: paused ? false : POLL_MS });
  const pipeline = query.data;
  const point = useMemo<QueuePoint | null>(
    () =>
      pipeline
        ? {
            at: Date.parse(pipeline.generated_at),
            sync_queued: pipeline.sync.queued,
            sync_running: pipeline.sync.running,
            processing_pending: pipeline.processing.pending,
            delivery_pending: pipeline.delivery.pending,
          }
        : null,
    [pipeline],
  );
  const history = useQueueHistory(point);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>Pipeline</Title>
        <Group>
          <Text size="sm" c="dimmed" aria-live="polite">
            {pipeline ? `Updated at ${formatTime(pipeline.generated_at)}` : "Loading"}
            {paused ? " (paused)" : ""}
          </Text>
          <Button variant="default" onClick={() => setPaused((p) => !p)} aria-pressed={paused}>
            {paused ? "Resume updates" : "Pause updates"}
          </Button>
        </Group>
      </Group>
      <QueryState query={query}>
        {() =>
          pipeline && (
            <Stack>
              <SectionBoundary name="The pipeline's figures">
                <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }}>
                  <StatCard
                    title="Sync"
                    stats={[
                      { label: "Queued", value: formatCount(pipeline.sync.queued) },
                      { label: "Running", value: formatCount(pipeline.sync.running) },
                      { label: "Retrying", value: formatCount(pipeline.sync.retrying), alert: pipeline.sync.retrying > 0 },
                      { label: "Rate limited", value: formatCount(pipeline.sync.rate_limited) },
                      { label: "Failed (24 h)", value: formatCount(pipeline.sync.failed_24h), alert: pipeline.sync.failed_24h > 0 },
                      { label: "Succeeded (24 h)", value: formatCount(pipeline.sync.succeeded_24h) },
                    ]}
                  />
                  <StatCard
                    title="Processing"
                    stats={[
                      { label: "Pending", value: formatCount(pipeline.processing.pending) },
                      { label: "Uploads running", value: formatCount(pipeline.processing.running) },
                      { label: "Parked", value: formatCount(pipeline.processing.parked), alert: pipeline.processing.parked > 0 },
                      { label: "Rejected records", value: formatCount(pipeline.processing.rejected_records), alert: pipeline.processing.rejected_records > 0 },
                    ]}
                  />
                  <StatCard
                    title="Storage"
                    stats={[
                      { label: "Raw objects (24 h)", value: formatCount(pipeline.storage.raw_objects_24h) },
                      { label: "Raw bytes (24 h)", value: formatBytes(pipeline.storage.raw_bytes_24h) },
                    ]}
                  />
                  <StatCard
                    title="Delivery"
                    stats={[
                      { label: "Endpoints", value: formatCount(pipeline.delivery.endpoints) },
                      { label: "Failing", value: formatCount(pipeline.delivery.endpoints_failing), alert: pipeline.delivery.endpoints_failing > 0 },
                      { label: "Disabled", value: formatCount(pipeline.delivery.endpoints_disabled), alert: pipeline.delivery.endpoints_disabled > 0 },
                      { label: "Pending", value: formatCount(pipeline.delivery.pending) },
                      { label: "Parked", value: formatCount(pipeline.delivery.parked), alert: pipeline.delivery.parked > 0 },
                    ]}
                  />
                  <StatCard
                    title="Users"
                    stats={[
                      { label: "Active", value: formatCount(pipeline.users.active) },
                      { label: "Being deleted", value: formatCount(pipeline.users.deleting) },
                    ]}
                  />
                </SimpleGrid>
              </SectionBoundary>
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                <SectionBoundary name="The queue depths chart">
                  <QueueDepthChart points={history} />
                </SectionBoundary>
                <SectionBoundary name="The connections chart">
                  <ConnectionsChart sources={pipeline.sources} />
                </SectionBoundary>
              </SimpleGrid>
              <SectionBoundary name="The sources table">
                <SourcesTable tenantId={tenant_id} sources={pipeline.sources} />
              </SectionBoundary>
            </Stack>
          )
        }
      </QueryState>
    </Stack>
  );
}

type Sources = MirrorOutputs["getTenantPipeline"]["sources"];

/**
 * Each source's availability in the providers tab's words: the reason comes from the tenant's
 * providers (read once, again when a source's availability changes), whether it is available
 * from the polled pipeline.
 */
function useAvailabilities(tenantId: string, sources: Sources): Map<string, ProviderAvailability> {
  const trpc = useTRPC();
  const providers = useQuery({ ...trpc.adminProviders.listTenantProviders.queryOptions({ tenant_id: tenantId }), staleTime: Infinity });
  const availableSlugs = sources
    .filter((source) => source.enabled)
    .map((source) => source.slug)
    .join(",");
  const { refetch } = providers;
  const stale = providers.data?.data.some((provider) => provider.available !== availableSlugs.split(",").includes(provider.slug)) ?? false;
  useEffect(() => {
    if (stale) void refetch();
  }, [stale, availableSlugs, refetch]);
  return useMemo(() => {
    const bySlug = new Map<string, ProviderAvailability>();
    for (const provider of providers.data?.data ?? []) bySlug.set(provider.slug, availabilityOf(provider));
    return bySlug;
  }, [providers.data]);
}

function SourcesTable({ tenantId, sources }: { tenantId: string; sources: Sources }) {
  const availabilities = useAvailabilities(tenantId, sources);
  return (
    <Stack gap="xs">
      <Title order={4}>Sources</Title>
      <Table.ScrollContainer minWidth={760}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Source</Table.Th>
              <Table.Th scope="col">Kinds</Table.Th>
              <Table.Th scope="col">Available to this tenant</Table.Th>
              <Table.Th scope="col">Active</Table.Th>
              <Table.Th scope="col">Needs reauth</Table.Th>
              <Table.Th scope="col">Disconnected</Table.Th>
              <Table.Th scope="col">Broken</Table.Th>
              <Table.Th scope="col">Paused until</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sources.map((source) => {
              const known = availabilities.get(source.slug);
              // The pipeline is polled: its answer wins while the reason catches up.
              const availability = known && known.available === source.enabled ? known : null;
              return (
                <Table.Tr key={source.slug}>
                  <Table.Th scope="row" fw={500}>
                    {source.name} <Text span size="xs" c="dimmed">({source.slug})</Text>
                  </Table.Th>
                  <Table.Td>{source.kinds.join(", ")}</Table.Td>
                  <Table.Td>
                    {availability ? <AvailabilityBadge availability={availability} /> : <StatusBadge status={source.enabled ? "available" : "unavailable"} />}
                  </Table.Td>
                  <Table.Td>{formatCount(source.connections.active)}</Table.Td>
                  <Table.Td>{formatCount(source.connections.needs_reauth)}</Table.Td>
                  <Table.Td>{formatCount(source.connections.disconnected)}</Table.Td>
                  <Table.Td>
                    {source.broken > 0 ? <StatusBadge status="broken" /> : null} {formatCount(source.broken)}
                  </Table.Td>
                  <Table.Td>{source.paused_until ? formatTime(source.paused_until) : "—"}</Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
