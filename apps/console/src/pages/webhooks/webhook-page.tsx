import { Text } from "@mantine/core";

/** Placeholder: built in issue 9 (console pages). */
export function WebhookPage() {
  return <Text c="dimmed">A webhook endpoint.</Text>;
}
