import { Text } from "@mantine/core";

/** Placeholder: built in issue 9 (console pages). */
export function AuditLogPage() {
  return <Text c="dimmed">The instance's audit log.</Text>;
}
