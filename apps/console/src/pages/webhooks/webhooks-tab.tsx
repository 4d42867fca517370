import { Text } from "@mantine/core";

/** Placeholder: built in issue 9 (console pages). */
export function WebhooksTab() {
  return <Text c="dimmed">The tenant's webhook endpoints.</Text>;
}
