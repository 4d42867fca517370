import { Anchor, Code, Stack, Table, Title } from "@mantine/core";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { formatTime } from "../../components/format.ts";
import { byCursor, PAGE_LIMIT, PagedList } from "../../components/paged-list.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import { useTenantId } from "../../layout/tenant-layout.tsx";
import { useTRPC } from "../../trpc.ts";

/** The tenant's active users, oldest first, 50 at a time. */
export function UsersTab() {
  const tenant_id = useTenantId();
  const trpc = useTRPC();
  const query = useInfiniteQuery(trpc.adminMirrors.listTenantUsers.infiniteQueryOptions({ tenant_id, limit: PAGE_LIMIT }, byCursor));
  return (
    <Stack>
      <Title order={3}>Users</Title>
      <PagedList query={query} noun="users" empty="The tenant has no users yet.">
        {(users) => (
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
                      <StatusBadge status={user.status} />
                    </Table.Td>
                    <Table.Td>{formatTime(user.created_at)}</Table.Td>
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
