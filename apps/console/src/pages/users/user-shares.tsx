import { Stack, Table, Text, Title } from "@mantine/core";
import { useInfiniteQuery } from "@tanstack/react-query";
import { formatCount, formatTime } from "../../components/format.ts";
import { byCursor, PAGE_LIMIT, PagedList } from "../../components/paged-list.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import { useTRPC } from "../../trpc.ts";

/** The user's share links, every status, oldest first (never a link, key or passcode: the server keeps none). */
export function UserShares({ tenantId, userId }: { tenantId: string; userId: string }) {
  const trpc = useTRPC();
  const query = useInfiniteQuery(trpc.adminMirrors.listTenantShares.infiniteQueryOptions({ tenant_id: tenantId, id: userId, limit: PAGE_LIMIT }, byCursor));
  return (
    <Stack gap="xs" component="section" aria-labelledby="shares-heading">
      <Title order={4} id="shares-heading">
        Shares
      </Title>
      <PagedList query={query} noun="shares" empty="No share links.">
        {(shares) => (
          <Table.ScrollContainer minWidth={900}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Label</Table.Th>
                  <Table.Th scope="col">Status</Table.Th>
                  <Table.Th scope="col">Categories</Table.Th>
                  <Table.Th scope="col">Window</Table.Th>
                  <Table.Th scope="col">Expires</Table.Th>
                  <Table.Th scope="col">Opened</Table.Th>
                  <Table.Th scope="col">Created</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {shares.map((share) => (
                  <Table.Tr key={share.id}>
                    <Table.Th scope="row" fw={500}>
                      {/* Written by a person: shown as text, never as markup. */}
                      {share.label}
                      <Text size="xs" c="dimmed">
                        {share.passcode ? `Passcode (${share.passcode_failures} wrong)` : "No passcode"}
                      </Text>
                    </Table.Th>
                    <Table.Td>
                      <StatusBadge status={share.status} />
                      {share.revoked_reason && (
                        <Text size="xs" c="dimmed">
                          {share.revoked_reason.replace(/_/g, " ")}, {formatTime(share.revoked_at)}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{share.categories.join(", ")}</Table.Td>
                    <Table.Td>
                      {formatTime(share.start)} – {formatTime(share.end)}
                    </Table.Td>
                    <Table.Td>{formatTime(share.expires_at)}</Table.Td>
                    <Table.Td>
                      {formatCount(share.accesses)} time{share.accesses === 1 ? "" : "s"}
                      {share.last_accessed_at && (
                        <Text size="xs" c="dimmed">
                          last {formatTime(share.last_accessed_at)}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{formatTime(share.created_at)}</Table.Td>
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
