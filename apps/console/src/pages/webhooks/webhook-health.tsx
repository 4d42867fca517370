import { Group, Text } from "@mantine/core";
import { formatTime } from "../../components/format.ts";
import type { MirrorOutputs } from "../../components/mirror-outputs.ts";
import { StatusBadge } from "../../components/status-badge.tsx";

export type WebhookEndpoint = MirrorOutputs["getTenantWebhook"];

/** An endpoint's health in words: disabled (and why), failing since, or healthy with its last success. */
export function WebhookHealth({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.status === "disabled")
    return (
      <Group gap="xs">
        <StatusBadge status="disabled" />
        {endpoint.disabled_reason && <Text size="sm">{endpoint.disabled_reason}</Text>}
      </Group>
    );
  if (endpoint.failing_since)
    return (
      <Group gap="xs">
        <StatusBadge status="failing" />
        <Text size="sm">since {formatTime(endpoint.failing_since)}</Text>
      </Group>
    );
  return (
    <Group gap="xs">
      <StatusBadge status="healthy" />
      <Text size="sm">{endpoint.last_success_at ? `last success ${formatTime(endpoint.last_success_at)}` : "nothing delivered yet"}</Text>
    </Group>
  );
}

/** Subscribed event types, or "every type" for an empty list. */
export function eventTypesText(types: string[]): string {
  return types.length === 0 ? "every type" : types.join(", ");
}
