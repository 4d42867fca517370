import { Text } from "@mantine/core";

/** Placeholder: built in issue 9 (console pages). */
export function InstanceProvidersPage() {
  return <Text c="dimmed">Instance providers.</Text>;
}
