import { Alert, Anchor, Center, Loader, Paper, Stack, Text } from "@mantine/core";
import { Link } from "react-router";
import { ProblemAlert } from "../../components/query-state.tsx";
import { problemOf } from "../../trpc.ts";
import { TenantDeletionProgress } from "./tenant-deletion-progress.tsx";

interface TenantQuery {
  isPending: boolean;
  error: unknown;
  data?: { status: "active" | "deleting"; deletion_job_id: string | null } | undefined;
}

/** What a tenant's page shows instead of its tabs while the tenant is not available: loading, not there (any more), or being deleted. */
export function TenantUnavailable({ tenant }: { tenant: TenantQuery }) {
  const back = (
    <Anchor component={Link} to="/tenants">
      Back to the tenants
    </Anchor>
  );
  if (tenant.data?.status === "deleting") {
    return (
      <Paper withBorder p="md">
        <Stack>
          {tenant.data.deletion_job_id && <TenantDeletionProgress jobId={tenant.data.deletion_job_id} explained />}
          {back}
        </Stack>
      </Paper>
    );
  }
  if (tenant.error) {
    if (problemOf(tenant.error).status !== 404) return <ProblemAlert error={tenant.error} />;
    return (
      <Alert color="gray" title="No such tenant">
        <Stack gap="xs">
          <Text size="sm">The instance has no tenant with this id: it may have been deleted.</Text>
          {back}
        </Stack>
      </Alert>
    );
  }
  return (
    <Center p="xl">
      <Loader aria-label="Loading" />
    </Center>
  );
}
