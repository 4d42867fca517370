import { Stack, Text, Title } from "@mantine/core";
import { useInfiniteQuery } from "@tanstack/react-query";
import { byCursor, PAGE_LIMIT } from "../../components/paged-list.tsx";
import { SectionBoundary } from "../../components/section-boundary.tsx";
import { useTenantId } from "../../layout/tenant-layout.tsx";
import { useTRPC } from "../../trpc.ts";
import { AuditLogFilterForm, useAuditFilters } from "./audit-log-filters.tsx";
import { AuditLogTable } from "./audit-log-table.tsx";

/** The tenant's audit log, newest first, with filters (reading it is recorded as `audit_log.read`). */
export function TenantAuditLogTab() {
  const tenantId = useTenantId();
  const trpc = useTRPC();
  const [filters, setFilters] = useAuditFilters();
  const log = useInfiniteQuery(trpc.auditLog.listTenantAuditLog.infiniteQueryOptions({ tenant_id: tenantId, limit: PAGE_LIMIT, ...filters }, byCursor));
  return (
    <Stack>
      <Title order={3}>Audit log</Title>
      <Text size="sm" c="dimmed">
        What the tenant's keys and instance admins did for this tenant, newest first. Reading it is recorded.
      </Text>
      <AuditLogFilterForm key={JSON.stringify(filters)} filters={filters} onChange={setFilters} withActorKind />
      <SectionBoundary name="The audit log" resetKeys={[JSON.stringify(filters)]}>
        <AuditLogTable query={log} caption="The tenant's audit log, newest first" filtered={Object.keys(filters).length > 0} />
      </SectionBoundary>
    </Stack>
  );
}
