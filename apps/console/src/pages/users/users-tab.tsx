import { Text } from "@mantine/core";

/** Placeholder: built in issue 9 (console pages). */
export function UsersTab() {
  return <Text c="dimmed">The tenant's users.</Text>;
}
