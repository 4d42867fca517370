import { Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { formatTime } from "../../components/format.ts";
import { QueryState } from "../../components/query-state.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import { useTRPC } from "../../trpc.ts";

/** The user's connections with their health: why one does not sync and what it takes. */
export function UserConnections({ tenantId, userId }: { tenantId: string; userId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.adminMirrors.listTenantConnections.queryOptions({ tenant_id: tenantId, id: userId }));
  return (
    <Stack gap="xs" component="section" aria-labelledby="connections-heading">
      <Title order={4} id="connections-heading">
        Connections
      </Title>
      <QueryState query={query}>
        {() =>
          query.data && query.data.data.length === 0 ? (
            <Text c="dimmed">No connections.</Text>
          ) : (
            <Table.ScrollContainer minWidth={800}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Provider</Table.Th>
                    <Table.Th scope="col">Status</Table.Th>
                    <Table.Th scope="col">Health</Table.Th>
                    <Table.Th scope="col">Action</Table.Th>
                    <Table.Th scope="col">Unhealthy since</Table.Th>
                    <Table.Th scope="col">Retry at</Table.Th>
                    <Table.Th scope="col">Last sync</Table.Th>
                    <Table.Th scope="col">Connected</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {query.data?.data.map((connection) => (
                    <Table.Tr key={connection.provider}>
                      <Table.Th scope="row" fw={500}>
                        {connection.provider}
                      </Table.Th>
                      <Table.Td>
                        <StatusBadge status={connection.status} />
                      </Table.Td>
                      <Table.Td>
                        {connection.health.healthy ? <StatusBadge status="healthy" /> : <StatusBadge status={connection.health.reason ?? "failing"} />}
                      </Table.Td>
                      <Table.Td>{connection.health.action.replace(/_/g, " ")}</Table.Td>
                      <Table.Td>{formatTime(connection.health.since)}</Table.Td>
                      <Table.Td>{formatTime(connection.health.retry_at)}</Table.Td>
                      <Table.Td>{formatTime(connection.last_sync_at)}</Table.Td>
                      <Table.Td>{formatTime(connection.connected_at)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )
        }
      </QueryState>
    </Stack>
  );
}
