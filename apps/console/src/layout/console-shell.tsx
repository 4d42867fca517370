import { AppShell, Burger, Button, Group, NavLink, Title } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { NavLink as RouterLink, Outlet, useLocation } from "react-router";
import { SectionBoundary } from "../components/section-boundary.tsx";
import { useAdminSession } from "../session/admin-session.tsx";

const SECTIONS = [
  { to: "/tenants", label: "Tenants" },
  { to: "/providers", label: "Instance providers" },
  { to: "/audit-log", label: "Audit log" },
];

/** The frame of every signed-in page: header, navigation and the page. */
export function ConsoleShell() {
  const { signOut } = useAdminSession();
  const [opened, { toggle }] = useDisclosure();
  const { pathname } = useLocation();
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: "sm", collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Title order={1} size="h4">
              svc console
            </Title>
          </Group>
          <Button variant="subtle" onClick={signOut}>
            Sign out
          </Button>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Sections">
        {SECTIONS.map((section) => (
          <NavLink
            key={section.to}
            component={RouterLink}
            to={section.to}
            label={section.label}
            variant="filled"
            active={pathname === section.to || pathname.startsWith(`${section.to}/`)}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main component="main">
        {/* The last line of defence: a page that fails leaves the header and navigation working. */}
        <SectionBoundary name="This page" resetKeys={[pathname]}>
          <Outlet />
        </SectionBoundary>
      </AppShell.Main>
    </AppShell>
  );
}
