import { Stack, Text, Title } from "@mantine/core";
import { useInfiniteQuery } from "@tanstack/react-query";
import { byCursor, PAGE_LIMIT } from "../../components/paged-list.tsx";
import { useTenantId } from "../../layout/tenant-layout.tsx";
import { useTRPC } from "../../trpc.ts";
import { AuditLogTable } from "./audit-log-table.tsx";

/** The tenant's audit log, newest first (reading it is recorded as `audit_log.read`). */
export function TenantAuditLogTab() {
  const tenantId = useTenantId();
  const trpc = useTRPC();
  const log = useInfiniteQuery(trpc.auditLog.listTenantAuditLog.infiniteQueryOptions({ tenant_id: tenantId, limit: PAGE_LIMIT }, byCursor));
  return (
    <Stack>
      <Title order={3}>Audit log</Title>
      <Text size="sm" c="dimmed">
        What the tenant's keys and instance admins did for this tenant, newest first. Reading it is recorded.
      </Text>
      <AuditLogTable query={log} caption="The tenant's audit log, newest first" />
    </Stack>
  );
}
