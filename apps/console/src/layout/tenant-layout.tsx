import { Anchor, Breadcrumbs, Button, Code, Group, Stack, Tabs, Text, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import { Link, Outlet, useLocation, useNavigate, useParams } from "react-router";
import { StatusBadge } from "../components/status-badge.tsx";
import { DeleteTenantModal } from "../pages/tenants/delete-tenant-modal.tsx";
import { TenantUnavailable } from "../pages/tenants/tenant-unavailable.tsx";
import { useTRPC } from "../trpc.ts";

const TABS = [
  { value: "providers", label: "Providers" },
  { value: "pipeline", label: "Pipeline" },
  { value: "users", label: "Users" },
  { value: "webhooks", label: "Webhooks" },
  { value: "audit-log", label: "Audit log" },
];

/** A tenant's pages: a tab per area, the tab's page below; while the tenant is being deleted, its deletion instead. */
export function TenantLayout() {
  const { tenantId = "" } = useParams();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const tenant = useTenant(tenantId);
  const [deleting, { open: openDelete, close: closeDelete }] = useDisclosure(false);
  const active = TABS.find((tab) => pathname.includes(`/tenants/${tenantId}/${tab.value}`))?.value ?? "providers";
  return (
    <Stack>
      <Breadcrumbs>
        <Anchor component={Link} to="/tenants">
          Tenants
        </Anchor>
        <Text size="sm">{tenant.data?.name ?? tenantId}</Text>
      </Breadcrumbs>
      <Group justify="space-between" align="flex-start">
        <Group gap="sm" align="baseline">
          <Title order={2}>{tenant.data?.name ?? "Tenant"}</Title>
          <Code>{tenantId}</Code>
          {tenant.data?.status === "deleting" && <StatusBadge status="deleting" />}
        </Group>
        {tenant.data?.status === "active" && (
          <Button variant="outline" color="red.9" onClick={openDelete}>
            Delete tenant
          </Button>
        )}
      </Group>
      {tenant.data && <DeleteTenantModal tenant={tenant.data} opened={deleting} onClose={closeDelete} />}
      {tenant.data?.status !== "active" ? (
        <TenantUnavailable tenant={tenant} />
      ) : (
        <>
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
        </>
      )}
    </Stack>
  );
}

/** The tenant (GET /v1/admin/tenants/{tenant_id}): its name, and whether it is being deleted. */
function useTenant(tenantId: string) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.adminTenants.getTenant.queryOptions({ tenant_id: tenantId }), staleTime: 60_000 });
}

/** The tenant id of the current tenant page. */
export function useTenantId(): string {
  const { tenantId = "" } = useParams();
  return tenantId;
}
