import { Anchor, Code, Drawer, Stack, Table, Text, Title } from "@mantine/core";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { FieldList } from "../../components/field-list.tsx";
import { formatCount, formatTime } from "../../components/format.ts";
import { byCursor, PAGE_LIMIT, PagedList } from "../../components/paged-list.tsx";
import { QueryState } from "../../components/query-state.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import { useTRPC } from "../../trpc.ts";

/** The user's sync runs (oldest first, as the API lists them); a run opens in a drawer. */
export function UserSyncRuns({ tenantId, userId }: { tenantId: string; userId: string }) {
  const trpc = useTRPC();
  const [runId, setRunId] = useState<number | null>(null);
  const query = useInfiniteQuery(trpc.adminMirrors.listTenantSyncRuns.infiniteQueryOptions({ tenant_id: tenantId, id: userId, limit: PAGE_LIMIT }, byCursor));
  return (
    <Stack gap="xs" component="section" aria-labelledby="sync-runs-heading">
      <Title order={4} id="sync-runs-heading">
        Sync runs
      </Title>
      <PagedList query={query} noun="runs" empty="No sync runs.">
        {(runs) => (
          <Table.ScrollContainer minWidth={800}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Run</Table.Th>
                  <Table.Th scope="col">Provider</Table.Th>
                  <Table.Th scope="col">Trigger</Table.Th>
                  <Table.Th scope="col">Status</Table.Th>
                  <Table.Th scope="col">Attempts</Table.Th>
                  <Table.Th scope="col">Created</Table.Th>
                  <Table.Th scope="col">Finished</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {runs.map((run) => (
                  <Table.Tr key={run.id}>
                    <Table.Td>
                      <Anchor component="button" type="button" size="sm" onClick={() => setRunId(run.id)}>
                        Run {run.id}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{run.provider}</Table.Td>
                    <Table.Td>{run.trigger}</Table.Td>
                    <Table.Td>
                      <StatusBadge status={run.status} />
                    </Table.Td>
                    <Table.Td>{run.attempts}</Table.Td>
                    <Table.Td>{formatTime(run.created_at)}</Table.Td>
                    <Table.Td>{formatTime(run.finished_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </PagedList>
      <Drawer opened={runId !== null} onClose={() => setRunId(null)} position="right" size="md" closeButtonProps={{ "aria-label": "Close" }} title={runId !== null ? `Sync run ${runId}` : "Sync run"}>
        {runId !== null && <SyncRunDetail tenantId={tenantId} userId={userId} runId={runId} />}
      </Drawer>
    </Stack>
  );
}

function SyncRunDetail({ tenantId, userId, runId }: { tenantId: string; userId: string; runId: number }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.adminMirrors.getTenantSyncRun.queryOptions({ tenant_id: tenantId, id: userId, run_id: runId }));
  return (
    <QueryState query={query}>
      {() => {
        const run = query.data;
        if (!run) return null;
        const fields: Array<[string, ReactNode]> = [
          ["Provider", run.provider],
          ["Trigger", run.trigger],
          ["Status", <StatusBadge key="status" status={run.status} />],
          ["Data type", run.data_type ?? "every type"],
          ["Window", `${formatTime(run.window_start)} – ${formatTime(run.window_end)}`],
          ["Failed attempts", run.attempts],
          ["Objects stored", run.objects_stored === null ? "—" : formatCount(run.objects_stored)],
          ["Created", formatTime(run.created_at)],
          ["Started", formatTime(run.started_at)],
          ["Finished", formatTime(run.finished_at)],
          ["Next attempt", formatTime(run.next_attempt_at)],
        ];
        return (
          <Stack>
            <FieldList fields={fields} />
            <div>
              <Text size="xs" c="dimmed">
                Error
              </Text>
              {run.error ? <Code block>{run.error}</Code> : <Text>None</Text>}
            </div>
          </Stack>
        );
      }}
    </QueryState>
  );
}
