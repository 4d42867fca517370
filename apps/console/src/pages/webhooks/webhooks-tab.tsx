import { Anchor, Stack, Table, Text, Title } from "@mantine/core";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { formatTime } from "../../components/format.ts";
import { byCursor, PAGE_LIMIT, PagedList } from "../../components/paged-list.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import { useTenantId } from "../../layout/tenant-layout.tsx";
import { useTRPC } from "../../trpc.ts";
import { eventTypesText, WebhookHealth } from "./webhook-health.tsx";

/** The tenant's webhook endpoints (never a secret), oldest first. */
export function WebhooksTab() {
  const tenant_id = useTenantId();
  const trpc = useTRPC();
  const query = useInfiniteQuery(trpc.adminMirrors.listTenantWebhooks.infiniteQueryOptions({ tenant_id, limit: PAGE_LIMIT }, byCursor));
  return (
    <Stack>
      <Title order={3}>Webhook endpoints</Title>
      <PagedList query={query} noun="endpoints" empty="The tenant has no webhook endpoints.">
        {(endpoints) => (
          <Table.ScrollContainer minWidth={800}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">URL</Table.Th>
                  <Table.Th scope="col">Events</Table.Th>
                  <Table.Th scope="col">Status</Table.Th>
                  <Table.Th scope="col">Health</Table.Th>
                  <Table.Th scope="col">Created</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {endpoints.map((endpoint) => (
                  <Table.Tr key={endpoint.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/tenants/${tenant_id}/webhooks/${endpoint.id}`} size="sm" style={{ wordBreak: "break-all" }}>
                        {endpoint.url}
                      </Anchor>
                      {endpoint.description && (
                        <Text size="xs" c="dimmed">
                          {endpoint.description}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{eventTypesText(endpoint.event_types)}</Table.Td>
                    <Table.Td>
                      <StatusBadge status={endpoint.status === "active" ? "enabled" : "disabled"} />
                    </Table.Td>
                    <Table.Td>
                      <WebhookHealth endpoint={endpoint} />
                    </Table.Td>
                    <Table.Td>{formatTime(endpoint.created_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </PagedList>
    </Stack>
  );
}
