import { Anchor, Button, Code, Group, Stack, Table, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { formatCount, formatTime } from "../../components/format.ts";
import { byCursor, PAGE_LIMIT, PagedList } from "../../components/paged-list.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import { useTRPC } from "../../trpc.ts";
import { CreateTenantModal } from "./create-tenant-modal.tsx";

/** Every tenant of the instance, oldest first (one being deleted shows as deleting until it is gone), and "Create tenant". */
export function TenantsPage() {
  const trpc = useTRPC();
  const [creating, { open, close }] = useDisclosure(false);
  const tenants = useInfiniteQuery(trpc.adminTenants.listTenants.infiniteQueryOptions({ limit: PAGE_LIMIT }, byCursor));
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Tenants</Title>
        <Button onClick={open}>Create tenant</Button>
      </Group>
      <PagedList query={tenants} noun="tenants" empty="No tenants yet.">
        {(rows) => (
          <Table.ScrollContainer minWidth={700}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Name</Table.Th>
                  <Table.Th>Id</Table.Th>
                  <Table.Th>Status</Table.Th>
                  <Table.Th ta="right">Users</Table.Th>
                  <Table.Th>Created</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((tenant) => (
                  <Table.Tr key={tenant.id}>
                    <Table.Td>
                      <Anchor component={Link} to={`/tenants/${tenant.id}/providers`}>
                        {tenant.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>
                      <Code>{tenant.id}</Code>
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge status={tenant.status} />
                    </Table.Td>
                    <Table.Td ta="right">{formatCount(tenant.users)}</Table.Td>
                    <Table.Td>{formatTime(tenant.created_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </PagedList>
      <CreateTenantModal opened={creating} onClose={close} />
    </Stack>
  );
}
