import { Stack, Text, Title } from "@mantine/core";
import { useInfiniteQuery } from "@tanstack/react-query";
import { byCursor, PAGE_LIMIT } from "../../components/paged-list.tsx";
import { SectionBoundary } from "../../components/section-boundary.tsx";
import { useTRPC } from "../../trpc.ts";
import { AuditLogFilterForm, useAuditFilters } from "./audit-log-filters.tsx";
import { AuditLogTable } from "./audit-log-table.tsx";

/** The instance's audit log: every admin action and mirror read, newest first, with filters. */
export function AuditLogPage() {
  const trpc = useTRPC();
  const [filters, setFilters] = useAuditFilters();
  const log = useInfiniteQuery(trpc.auditLog.listAdminAuditLog.infiniteQueryOptions({ limit: PAGE_LIMIT, ...filters }, byCursor));
  return (
    <Stack>
      <Title order={2}>Audit log</Title>
      <Text size="sm" c="dimmed">
        Every action and mirror read of every instance admin key, newest first. Reading this log is not recorded.
      </Text>
      <AuditLogFilterForm key={JSON.stringify(filters)} filters={filters} onChange={setFilters} withActorKind={false} />
      <SectionBoundary name="The audit log" resetKeys={[JSON.stringify(filters)]}>
        <AuditLogTable query={log} caption="The instance's audit log, newest first" filtered={Object.keys(filters).length > 0} />
      </SectionBoundary>
    </Stack>
  );
}
