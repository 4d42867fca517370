import { Text } from "@mantine/core";

/** Placeholder: built in issue 9 (console pages). */
export function UserPage() {
  return <Text c="dimmed">A user's data.</Text>;
}
