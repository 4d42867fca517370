import { Stack, Text } from "@mantine/core";
import { REASON_TEXT, type ProviderAvailability } from "./provider-availability.ts";
import { StatusBadge } from "./status-badge.tsx";

/** "Available" or "Unavailable" to the tenant, with its reason under it (the same words on every page). */
export function AvailabilityBadge({ availability }: { availability: ProviderAvailability | null }) {
  if (!availability) return <Text size="sm">—</Text>;
  return (
    <Stack gap={2} align="flex-start">
      <StatusBadge status={availability.available ? "available" : "unavailable"} />
      <Text size="xs">{REASON_TEXT[availability.reason]}</Text>
    </Stack>
  );
}
