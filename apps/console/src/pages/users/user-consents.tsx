import { Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { formatTime } from "../../components/format.ts";
import { QueryState } from "../../components/query-state.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import { useTRPC } from "../../trpc.ts";

/** The user's consent per source: which data categories are revoked (every category is granted until revoked). */
export function UserConsents({ tenantId, userId }: { tenantId: string; userId: string }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.adminMirrors.listTenantConsents.queryOptions({ tenant_id: tenantId, id: userId }));
  return (
    <Stack gap="xs" component="section" aria-labelledby="consents-heading">
      <Title order={4} id="consents-heading">
        Consents
      </Title>
      <QueryState query={query}>
        {() =>
          query.data && query.data.data.length === 0 ? (
            <Text c="dimmed">No sources yet.</Text>
          ) : (
            <Table.ScrollContainer minWidth={560}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">Source</Table.Th>
                    <Table.Th scope="col">Consent</Table.Th>
                    <Table.Th scope="col">Revoked categories</Table.Th>
                    <Table.Th scope="col">Last changed</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {query.data?.data.map((source) => {
                    const revoked = source.categories.filter((category) => !category.granted);
                    const changed = source.categories.map((category) => category.updated_at).filter((at): at is string => at !== null).sort().at(-1) ?? null;
                    return (
                      <Table.Tr key={source.provider}>
                        <Table.Th scope="row" fw={500}>
                          {source.provider}
                        </Table.Th>
                        <Table.Td>
                          <StatusBadge status={revoked.length === 0 ? "granted" : revoked.length === source.categories.length ? "revoked" : "partly_revoked"} />
                        </Table.Td>
                        <Table.Td>{revoked.length === 0 ? "None" : revoked.map((category) => category.category).join(", ")}</Table.Td>
                        <Table.Td>{changed ? formatTime(changed) : "Never (granted by default)"}</Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )
        }
      </QueryState>
    </Stack>
  );
}
