import { Anchor, Code, Group, Stack, Title } from "@mantine/core";
import { Link, useParams } from "react-router";
import { useTenantId } from "../../layout/tenant-layout.tsx";
import { UserConnections } from "./user-connections.tsx";
import { UserSamplesSection } from "./user-samples-section.tsx";
import { UserSyncRuns } from "./user-sync-runs.tsx";

/** One user's data through the admin mirrors: samples (per source and merged), stats, connections, sync runs. */
export function UserPage() {
  const tenantId = useTenantId();
  const { userId = "" } = useParams();
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={3}>
          User <Code fz="inherit">{userId}</Code>
        </Title>
        <Anchor component={Link} to={`/tenants/${tenantId}/users`}>
          All users
        </Anchor>
      </Group>
      <UserSamplesSection tenantId={tenantId} userId={userId} />
      <UserConnections tenantId={tenantId} userId={userId} />
      <UserSyncRuns tenantId={tenantId} userId={userId} />
    </Stack>
  );
}
