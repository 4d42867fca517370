import { Anchor, Breadcrumbs, Code, Stack, Tabs, Title } from "@mantine/core";
import { Link, Outlet, useLocation, useNavigate, useParams } from "react-router";

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
  const active = TABS.find((tab) => pathname.includes(`/tenants/${tenantId}/${tab.value}`))?.value ?? "providers";
  return (
    <Stack>
      <Breadcrumbs>
        <Anchor component={Link} to="/tenants">
          Tenants
        </Anchor>
        <Code>{tenantId}</Code>
      </Breadcrumbs>
      <Title order={2}>Tenant</Title>
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

/** The tenant id of the current tenant page. */
export function useTenantId(): string {
  const { tenantId = "" } = useParams();
  return tenantId;
}
