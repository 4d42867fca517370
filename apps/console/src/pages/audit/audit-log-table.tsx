import { Code, Stack, Table, Text } from "@mantine/core";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@svc/api";
import { formatTime } from "../../components/format.ts";
import { PagedList, type PagedQuery } from "../../components/paged-list.tsx";

type AuditEntry = inferRouterOutputs<AppRouter>["auditLog"]["listAdminAuditLog"]["data"][number];

/** Audit entries, newest first as the server answers them, with "Load more" while there is a next page. */
export function AuditLogTable({ query, caption, filtered }: { query: PagedQuery<AuditEntry>; caption: string; filtered: boolean }) {
  return (
    <PagedList query={query} noun="entries" empty={filtered ? "No entry matches the filters." : "Nothing recorded yet."}>
      {(entries) => (
        <Table.ScrollContainer minWidth={900}>
          <Table striped>
            <Table.Caption>{caption}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>At</Table.Th>
                <Table.Th>Actor</Table.Th>
                <Table.Th>Action</Table.Th>
                <Table.Th>Target</Table.Th>
                <Table.Th>Request id</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry) => (
                <Table.Tr key={entry.id}>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>{formatTime(entry.at)}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{entry.actor.kind === "admin" ? "Admin key" : "Tenant key"}</Text>
                    <Code>{entry.actor.id}</Code>
                  </Table.Td>
                  <Table.Td>
                    <Code>{entry.action}</Code>
                  </Table.Td>
                  <Table.Td>
                    <Target target={entry.target} />
                  </Table.Td>
                  <Table.Td>{entry.request_id ? <Code>{entry.request_id}</Code> : "—"}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </PagedList>
  );
}

function Target({ target }: { target: AuditEntry["target"] }) {
  const parts: Array<[string, string]> = [];
  if (target.tenant_id) parts.push(["Tenant", target.tenant_id]);
  if (target.user_id) parts.push(["User", target.user_id]);
  if (target.provider) parts.push(["Provider", target.provider]);
  if (target.resource_type) parts.push([target.resource_type, target.resource_id ?? "—"]);
  if (parts.length === 0) return <Text size="sm">Instance</Text>;
  return (
    <Stack gap={2}>
      {parts.map(([label, value]) => (
        <Text size="sm" key={label}>
          {label}: <Code>{value}</Code>
        </Text>
      ))}
    </Stack>
  );
}
