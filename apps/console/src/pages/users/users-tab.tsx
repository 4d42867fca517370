import { Anchor, Code, Stack, Table, Text, Title } from "@mantine/core";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { DataLoadMore } from "../../components/data-load-more.tsx";
import { DataStatusBadge } from "../../components/data-status-badge.tsx";
import { formatTime } from "../../components/format.ts";
import { QueryState } from "../../components/query-state.tsx";
import { useTenantId } from "../../layout/tenant-layout.tsx";
import { useTRPC } from "../../trpc.ts";

/** The tenant's active users, oldest first, 50 at a time. */
export function UsersTab() {
  const tenant_id = useTenantId();
  const trpc = useTRPC();
  const query = useInfiniteQuery(
    trpc.adminMirrors.listTenantUsers.infiniteQueryOptions({ tenant_id, limit: 50 }, { getNextPageParam: (page) => page.next_cursor ?? undefined }),
  );
  const users = query.data?.pages.flatMap((page) => page.data) ?? [];
  return (
    <Stack>
      <Title order={3}>Users</Title>
      <QueryState query={query}>
        {() =>
          users.length === 0 ? (
            <Text c="dimmed">The tenant has no users yet.</Text>
          ) : (
            <Stack>
              <Table.ScrollContainer minWidth={640}>
                <Table striped highlightOnHover>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">User id</Table.Th>
                      <Table.Th scope="col">External ref</Table.Th>
                      <Table.Th scope="col">Status</Table.Th>
                      <Table.Th scope="col">Created</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {users.map((user) => (
                      <Table.Tr key={user.id}>
                        <Table.Td>
                          <Anchor component={Link} to={`/tenants/${tenant_id}/users/${user.id}`} ff="monospace" size="sm">
                            {user.id}
                          </Anchor>
                        </Table.Td>
                        <Table.Td>{user.external_ref ? <Code>{user.external_ref}</Code> : "—"}</Table.Td>
                        <Table.Td>
                          <DataStatusBadge status={user.status} />
                        </Table.Td>
                        <Table.Td>{formatTime(user.created_at)}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              <DataLoadMore
                noun="users"
                shown={users.length}
                hasMore={query.hasNextPage}
                loading={query.isFetchingNextPage}
                onLoadMore={() => void query.fetchNextPage()}
              />
            </Stack>
          )
        }
      </QueryState>
    </Stack>
  );
}
