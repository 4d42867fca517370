import { Anchor, Breadcrumbs, Code, Group, Stack, Tabs, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { Link, Outlet, useLocation, useNavigate, useParams } from "react-router";
import { useTRPC } from "../trpc.ts";

const TABS = [
  { value: "providers", label: "Providers" },
  { value: "pipeline", label: "Pipeline" },
  { value: "users", label: "Users" },
  { value: "webhooks", label: "Webhooks" },
  { value: "audit-log", label: "Audit log" },
];

/** A tenant's pages: a tab per area, the tab's page below. */
export function TenantLayout() {
  const { tenantId = "" } = useParams();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const name = useTenantName(tenantId);
  const active = TABS.find((tab) => pathname.includes(`/tenants/${tenantId}/${tab.value}`))?.value ?? "providers";
  return (
    <Stack>
      <Breadcrumbs>
        <Anchor component={Link} to="/tenants">
          Tenants
        </Anchor>
        <Text size="sm">{name.data ?? tenantId}</Text>
      </Breadcrumbs>
      <Group gap="sm" align="baseline">
        <Title order={2}>{name.data ?? "Tenant"}</Title>
        <Code>{tenantId}</Code>
      </Group>
      <Tabs value={active} onChange={(value) => value && navigate(`/tenants/${tenantId}/${value}`)} keepMounted={false}>
        <Tabs.List>
          {TABS.map((tab) => (
            <Tabs.Tab key={tab.value} value={tab.value}>
              {tab.label}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Outlet />
    </Stack>
  );
}

/** The tenant's name (GET /v1/admin/tenants/{tenant_id}). */
function useTenantName(tenantId: string) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.adminTenants.getTenant.queryOptions({ tenant_id: tenantId }), select: (tenant) => tenant.name, staleTime: 60_000 });
}

/** The tenant id of the current tenant page. */
export function useTenantId(): string {
  const { tenantId = "" } = useParams();
  return tenantId;
}
