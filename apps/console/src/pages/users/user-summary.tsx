import { Code, Group, Paper } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { FieldList } from "../../components/field-list.tsx";
import { formatTime } from "../../components/format.ts";
import { QueryState } from "../../components/query-state.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import { useTRPC } from "../../trpc.ts";

/** Who the user is for the tenant: external_ref, status (also while being deleted) and when it was created. */
export function UserSummary({ tenantId, userId }: { tenantId: string; userId: string }) {
  const trpc = useTRPC();
  const user = useQuery(trpc.adminMirrors.getTenantUser.queryOptions({ tenant_id: tenantId, id: userId }));
  return (
    <QueryState query={user}>
      {() =>
        user.data && (
          <Paper withBorder p="sm" component="section" aria-label="User summary">
            <FieldList
              cols={{ base: 1, sm: 3 }}
              fields={[
                ["External ref", user.data.external_ref ? <Code key="ref">{user.data.external_ref}</Code> : "None"],
                [
                  "Status",
                  <Group key="status" gap={4} component="span">
                    <StatusBadge status={user.data.status} />
                  </Group>,
                ],
                ["Created", formatTime(user.data.created_at)],
              ]}
            />
          </Paper>
        )
      }
    </QueryState>
  );
}
