import { Text } from "@mantine/core";

/** Placeholder: built in issue 9 (console pages). */
export function TenantAuditLogTab() {
  return <Text c="dimmed">The tenant's audit log.</Text>;
}
