import { Text } from "@mantine/core";

/** Placeholder: built in issue 9 (console pages). */
export function TenantProvidersTab() {
  return <Text c="dimmed">The tenant's providers.</Text>;
}
