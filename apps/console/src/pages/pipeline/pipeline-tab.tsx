import { Button, Group, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
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
              <SimpleGrid cols={{ base: 1, md: 2 }}>
                <QueueDepthChart points={history} />
                <ConnectionsChart sources={pipeline.sources} />
              </SimpleGrid>
              <SourcesTable sources={pipeline.sources} />
            </Stack>
          )
        }
      </QueryState>
    </Stack>
  );
}

type Sources = MirrorOutputs["getTenantPipeline"]["sources"];

function SourcesTable({ sources }: { sources: Sources }) {
  return (
    <Stack gap="xs">
      <Title order={4}>Sources</Title>
      <Table.ScrollContainer minWidth={700}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Source</Table.Th>
              <Table.Th scope="col">Kinds</Table.Th>
              <Table.Th scope="col">Enabled</Table.Th>
              <Table.Th scope="col">Active</Table.Th>
              <Table.Th scope="col">Needs reauth</Table.Th>
              <Table.Th scope="col">Disconnected</Table.Th>
              <Table.Th scope="col">Broken</Table.Th>
              <Table.Th scope="col">Paused until</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sources.map((source) => (
              <Table.Tr key={source.slug}>
                <Table.Th scope="row" fw={500}>
                  {source.name} <Text span size="xs" c="dimmed">({source.slug})</Text>
                </Table.Th>
                <Table.Td>{source.kinds.join(", ")}</Table.Td>
                <Table.Td>
                  <StatusBadge status={source.enabled ? "enabled" : "disabled"} />
                </Table.Td>
                <Table.Td>{formatCount(source.connections.active)}</Table.Td>
                <Table.Td>{formatCount(source.connections.needs_reauth)}</Table.Td>
                <Table.Td>{formatCount(source.connections.disconnected)}</Table.Td>
                <Table.Td>{source.broken > 0 ? <StatusBadge status="broken" /> : null} {formatCount(source.broken)}</Table.Td>
                <Table.Td>{source.paused_until ? formatTime(source.paused_until) : "—"}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}
