import { Group, Text } from "@mantine/core";
import { DataStatusBadge } from "../../components/data-status-badge.tsx";
import type { MirrorOutputs } from "../../components/data-types.ts";
import { formatTime } from "../../components/format.ts";

export type WebhookEndpoint = MirrorOutputs["getTenantWebhook"];

/** An endpoint's health in words: disabled (and why), failing since, or healthy with its last success. */
export function WebhookHealth({ endpoint }: { endpoint: WebhookEndpoint }) {
  if (endpoint.status === "disabled")
    return (
      <Group gap="xs">
        <DataStatusBadge status="disabled" />
        {endpoint.disabled_reason && <Text size="sm">{endpoint.disabled_reason}</Text>}
      </Group>
    );
  if (endpoint.failing_since)
    return (
      <Group gap="xs">
        <DataStatusBadge status="failing" />
        <Text size="sm">since {formatTime(endpoint.failing_since)}</Text>
      </Group>
    );
  return (
    <Group gap="xs">
      <DataStatusBadge status="healthy" />
      <Text size="sm">{endpoint.last_success_at ? `last success ${formatTime(endpoint.last_success_at)}` : "nothing delivered yet"}</Text>
    </Group>
  );
}

/** Subscribed event types, or "every type" for an empty list. */
export function eventTypesText(types: string[]): string {
  return types.length === 0 ? "every type" : types.join(", ");
}
