import { Anchor, Code, Group, Stack, Title } from "@mantine/core";
import { Link, useParams } from "react-router";
import { SectionBoundary } from "../../components/section-boundary.tsx";
import { useTenantId } from "../../layout/tenant-layout.tsx";
import { UserConnections } from "./user-connections.tsx";
import { UserConsents } from "./user-consents.tsx";
import { UserSamplesSection } from "./user-samples-section.tsx";
import { UserShares } from "./user-shares.tsx";
import { UserSummary } from "./user-summary.tsx";
import { UserSyncRuns } from "./user-sync-runs.tsx";

/**
 * One user through the admin mirrors: who it is (external_ref, status, created), its samples
 * (per source and merged), stats, connections, sync runs, shares and consents. Each section
 * fails on its own: a broken one shows its error and a retry, the others stay.
 */
export function UserPage() {
  const tenantId = useTenantId();
  const { userId = "" } = useParams();
  const sections = [
    { name: "The user summary", Section: UserSummary },
    { name: "Samples", Section: UserSamplesSection },
    { name: "Connections", Section: UserConnections },
    { name: "Sync runs", Section: UserSyncRuns },
    { name: "Shares", Section: UserShares },
    { name: "Consents", Section: UserConsents },
  ];
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={3}>
          User <Code fz="inherit" style={{ wordBreak: "break-all" }}>{userId}</Code>
        </Title>
        <Group gap="md">
          <Anchor component={Link} to={`/tenants/${tenantId}/audit-log?user_id=${userId}`}>
            Audit entries about this user
          </Anchor>
          <Anchor component={Link} to={`/tenants/${tenantId}/users`}>
            All users
          </Anchor>
        </Group>
      </Group>
      {sections.map(({ name, Section }) => (
        <SectionBoundary key={name} name={name} resetKeys={[userId]}>
          <Section tenantId={tenantId} userId={userId} />
        </SectionBoundary>
      ))}
    </Stack>
  );
}
