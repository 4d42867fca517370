import { MantineProvider } from "@mantine/core";
import { BrowserRouter, Navigate, Route, Routes } from "react-router";
import { ConsoleShell } from "./layout/console-shell.tsx";
import { TenantLayout } from "./layout/tenant-layout.tsx";
import { AuditLogPage } from "./pages/audit/audit-log-page.tsx";
import { InstanceProvidersPage } from "./pages/providers/instance-providers-page.tsx";
import { SignInPage } from "./pages/sign-in-page.tsx";
import { PipelineTab } from "./pages/pipeline/pipeline-tab.tsx";
import { TenantAuditLogTab } from "./pages/audit/tenant-audit-log-tab.tsx";
import { TenantProvidersTab } from "./pages/tenants/tenant-providers-tab.tsx";
import { TenantsPage } from "./pages/tenants/tenants-page.tsx";
import { UserPage } from "./pages/users/user-page.tsx";
import { UsersTab } from "./pages/users/users-tab.tsx";
import { WebhookPage } from "./pages/webhooks/webhook-page.tsx";
import { WebhooksTab } from "./pages/webhooks/webhooks-tab.tsx";
import { AdminSessionProvider, useAdminSession } from "./session/admin-session.tsx";
import { cssVariablesResolver, theme } from "./theme.ts";

/** Every page of the console, under /console. */
function ConsoleRoutes() {
  const { signedIn } = useAdminSession();
  if (!signedIn) return <SignInPage />;
  return (
    <Routes>
      <Route element={<ConsoleShell />}>
        <Route index element={<Navigate to="/tenants" replace />} />
        <Route path="tenants" element={<TenantsPage />} />
        <Route path="tenants/:tenantId" element={<TenantLayout />}>
          <Route index element={<Navigate to="providers" replace />} />
          <Route path="providers" element={<TenantProvidersTab />} />
          <Route path="pipeline" element={<PipelineTab />} />
          <Route path="users" element={<UsersTab />} />
          <Route path="users/:userId" element={<UserPage />} />
          <Route path="webhooks" element={<WebhooksTab />} />
          <Route path="webhooks/:webhookId" element={<WebhookPage />} />
          <Route path="audit-log" element={<TenantAuditLogTab />} />
        </Route>
        <Route path="providers" element={<InstanceProvidersPage />} />
        <Route path="audit-log" element={<AuditLogPage />} />
        <Route path="*" element={<Navigate to="/tenants" replace />} />
      </Route>
    </Routes>
  );
}

export function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="auto">
      <AdminSessionProvider>
        <BrowserRouter basename="/console">
          <ConsoleRoutes />
        </BrowserRouter>
      </AdminSessionProvider>
    </MantineProvider>
  );
}
