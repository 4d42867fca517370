import { Alert, Group, Progress, Stack, Text } from "@mantine/core";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { formatTime } from "../../components/format.ts";
import { QueryState } from "../../components/query-state.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import { useTRPC } from "../../trpc.ts";

/** How often a running deletion is read again. */
const POLL_MS = 1_000;

/**
 * A tenant's deletion as it runs (GET /v1/admin/tenant-deletions/{job_id}, every second until it
 * ends): its status, users deleted of all, and the end; with `explained`, what it means for the
 * tenant first. When it is done, the tenant lists are read again.
 */
export function TenantDeletionProgress({ jobId, explained = false }: { jobId: string; explained?: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const job = useQuery({
    ...trpc.adminTenants.getTenantDeletionJob.queryOptions({ job_id: jobId }),
    refetchInterval: (query) => (query.state.data?.status === "done" || query.state.data?.status === "failed" ? false : POLL_MS),
  });
  const ended = job.data?.status === "done";
  useEffect(() => {
    if (ended) void queryClient.invalidateQueries({ queryKey: trpc.adminTenants.listTenants.pathKey() });
  }, [ended, queryClient, trpc]);

  return (
    <QueryState query={job}>
      {() => {
        const deletion = job.data!;
        const share = deletion.users_total === 0 ? (deletion.status === "done" ? 100 : 0) : Math.round((100 * deletion.users_deleted) / deletion.users_total);
        return (
          <Stack gap="xs">
            {explained && (
              <Text mb="xs">
                {deletion.status === "done"
                  ? "This tenant was deleted."
                  : "This tenant is being deleted: its keys are refused and its pages are closed; the rest of it is deleted in the background."}
              </Text>
            )}
            <Group gap="sm">
              <Text fw={500}>Deletion of {deletion.tenant_name}</Text>
              <StatusBadge status={deletion.status} />
            </Group>
            <Progress.Root size="lg">
              <Progress.Section value={share} aria-label="Users deleted" color={deletion.status === "failed" ? "red.9" : "blue.9"} />
            </Progress.Root>
            <Text size="sm" role="status">
              {deletion.users_deleted} of {deletion.users_total} users deleted
              {deletion.status === "done" && deletion.finished_at ? `; the tenant was deleted at ${formatTime(deletion.finished_at)}.` : "."}
            </Text>
            {deletion.status === "failed" && (
              <Alert color="red" role="alert" title="The deletion stopped">
                The worker gave up after several attempts (its log says why). The tenant stays refused; delete it again to retry.
              </Alert>
            )}
          </Stack>
        );
      }}
    </QueryState>
  );
}
