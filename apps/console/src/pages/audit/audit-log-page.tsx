import { Stack, Text, Title } from "@mantine/core";
import { useInfiniteQuery } from "@tanstack/react-query";
import { byCursor, PAGE_LIMIT } from "../../components/paged-list.tsx";
import { useTRPC } from "../../trpc.ts";
import { AuditLogTable } from "./audit-log-table.tsx";

/** The instance's audit log: every admin action and mirror read, newest first. */
export function AuditLogPage() {
  const trpc = useTRPC();
  const log = useInfiniteQuery(trpc.auditLog.listAdminAuditLog.infiniteQueryOptions({ limit: PAGE_LIMIT }, byCursor));
  return (
    <Stack>
      <Title order={2}>Audit log</Title>
      <Text size="sm" c="dimmed">
        Every action and mirror read of every instance admin key, newest first. Reading this log is not recorded.
      </Text>
      <AuditLogTable query={log} caption="The instance's audit log, newest first" />
    </Stack>
  );
}
