import { Anchor, Button, Code, Group, NativeSelect, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { Link, useSearchParams } from "react-router";
import { formatTime } from "../../components/format.ts";
import { byCursor, PAGE_LIMIT, PagedList } from "../../components/paged-list.tsx";
import { QueryState } from "../../components/query-state.tsx";
import { SectionBoundary } from "../../components/section-boundary.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import { useTenantId } from "../../layout/tenant-layout.tsx";
import { useTRPC } from "../../trpc.ts";

type Match = "prefix" | "exact";
type User = { id: string; external_ref: string | null; status: string; created_at: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The tenant's active users, oldest first, 50 at a time; or those whose external_ref starts
 * with (or is) the text searched, and the user whose id it is when it is a uuid. The search
 * lives in the address (?q=&match=), so a found list can be linked and survives going back.
 */
export function UsersTab() {
  const [params, setParams] = useSearchParams();
  const q = params.get("q")?.trim() ?? "";
  const match: Match = params.get("match") === "exact" ? "exact" : "prefix";
  const [draft, setDraft] = useState({ q, match });
  const search = (event: FormEvent) => {
    event.preventDefault();
    const next = draft.q.trim();
    setParams(next ? { q: next, match: draft.match } : {});
  };
  return (
    <Stack>
      <Title order={3}>Users</Title>
      <Group component="form" role="search" aria-label="Find a user" align="end" onSubmit={search} wrap="wrap">
        <TextInput
          label="External ref or user id"
          value={draft.q}
          onChange={(event) => setDraft({ ...draft, q: event.currentTarget.value })}
          w={{ base: "100%", sm: 320 }}
          maxLength={255}
        />
        <NativeSelect
          label="External ref"
          value={draft.match}
          onChange={(event) => setDraft({ ...draft, match: event.currentTarget.value as Match })}
          data={[
            { value: "prefix", label: "starts with" },
            { value: "exact", label: "is exactly" },
          ]}
        />
        <Button type="submit">Search</Button>
        {q && (
          <Button
            variant="default"
            onClick={() => {
              setDraft({ q: "", match });
              setParams({});
            }}
          >
            Show all users
          </Button>
        )}
      </Group>
      <SectionBoundary name="The users list" resetKeys={[q, match]}>
        {q && UUID.test(q) && <UserById id={q.toLowerCase()} />}
        <UsersList q={q} match={match} />
      </SectionBoundary>
    </Stack>
  );
}

/** The user whose id was searched, when there is one (also while it is being deleted). */
function UserById({ id }: { id: string }) {
  const tenant_id = useTenantId();
  const trpc = useTRPC();
  const user = useQuery({ ...trpc.adminMirrors.getTenantUser.queryOptions({ tenant_id, id }), retry: false });
  const notFound = (user.error as { data?: { httpStatus?: number } } | null)?.data?.httpStatus === 404;
  return (
    <Stack gap="xs" component="section" aria-labelledby="by-id-heading">
      <Title order={4} id="by-id-heading">
        User with this id
      </Title>
      {notFound ? <Text c="dimmed">No user of this tenant has this id.</Text> : <QueryState query={user}>{() => user.data && <UsersTable users={[user.data]} />}</QueryState>}
    </Stack>
  );
}

function UsersList({ q, match }: { q: string; match: Match }) {
  const tenant_id = useTenantId();
  const trpc = useTRPC();
  const filter = q === "" ? {} : match === "exact" ? { external_ref: q } : { external_ref_prefix: q };
  const query = useInfiniteQuery(trpc.adminMirrors.listTenantUsers.infiniteQueryOptions({ tenant_id, limit: PAGE_LIMIT, ...filter }, byCursor));
  const heading = q === "" ? "All active users" : `External ref ${match === "exact" ? "is" : "starts with"} “${q}”`;
  return (
    <Stack gap="xs" component="section" aria-labelledby="users-list-heading">
      <Title order={4} id="users-list-heading">
        {heading}
      </Title>
      <PagedList query={query} noun="users" empty={q === "" ? "The tenant has no users yet." : "No active user's external ref matches."}>
        {(users) => <UsersTable users={users} />}
      </PagedList>
    </Stack>
  );
}

function UsersTable({ users }: { users: User[] }) {
  const tenant_id = useTenantId();
  return (
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
  );
}
