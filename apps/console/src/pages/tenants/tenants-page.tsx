import { Text } from "@mantine/core";

/** Placeholder: built in issue 9 (console pages). */
export function TenantsPage() {
  return <Text c="dimmed">Tenants.</Text>;
}
