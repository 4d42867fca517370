import { Button, Code, Drawer, Group, Stack, Table, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { FieldList } from "../../components/field-list.tsx";
import { formatDuration, formatTime } from "../../components/format.ts";
import { ProblemAlert, QueryState } from "../../components/query-state.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import { useTRPC } from "../../trpc.ts";

/** One delivery in a drawer: its state, attempt history and payload, and Retry. */
export function DeliveryDrawer({
  tenantId,
  webhookId,
  deliveryId,
  endpointActive,
  onClose,
}: {
  tenantId: string;
  webhookId: string;
  deliveryId: number | null;
  endpointActive: boolean;
  onClose: () => void;
}) {
  return (
    <Drawer opened={deliveryId !== null} onClose={onClose} position="right" size="xl" closeButtonProps={{ "aria-label": "Close" }} title={deliveryId !== null ? `Delivery ${deliveryId}` : "Delivery"}>
      {deliveryId !== null && <DeliveryDetail tenantId={tenantId} webhookId={webhookId} deliveryId={deliveryId} endpointActive={endpointActive} />}
    </Drawer>
  );
}

function DeliveryDetail({ tenantId, webhookId, deliveryId, endpointActive }: { tenantId: string; webhookId: string; deliveryId: number; endpointActive: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = { tenant_id: tenantId, webhook_id: webhookId, delivery_id: deliveryId };
  const [retried, setRetried] = useState(false);
  const query = useQuery({
    ...trpc.adminMirrors.getTenantWebhookDelivery.queryOptions(input),
    // After a retry, follow the delivery until it is done or parked again.
    refetchInterval: (q) => (retried && (q.state.data?.status === "pending" || q.state.data?.status === "running") ? 1_000 : false),
  });
  const retry = useMutation(
    trpc.adminMirrors.retryTenantWebhookDelivery.mutationOptions({
      onSuccess: (delivery) => {
        setRetried(true);
        queryClient.setQueryData(trpc.adminMirrors.getTenantWebhookDelivery.queryKey(input), delivery);
        void queryClient.invalidateQueries({ queryKey: trpc.adminMirrors.listTenantWebhookDeliveries.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.adminMirrors.getTenantWebhook.pathKey() });
      },
    }),
  );
  return (
    <QueryState query={query}>
      {() => {
        const delivery = query.data;
        if (!delivery) return null;
        const canRetry = (delivery.status === "parked" || delivery.status === "done") && endpointActive;
        const fields: Array<[string, ReactNode]> = [
          ["Event", delivery.event_type],
          ["Event id", <Code key="event">{delivery.event_id}</Code>],
          ["Attempts", delivery.attempts],
          ["Last status code", delivery.last_status_code ?? "—"],
          ["Last error", delivery.last_error ?? "—"],
          ["Next attempt", formatTime(delivery.next_attempt_at)],
          ["Delivered", formatTime(delivery.delivered_at)],
          ["Created", formatTime(delivery.created_at)],
          ["Replay of", delivery.replay_of ?? "—"],
        ];
        return (
          <Stack>
            <Group justify="space-between">
              <Group gap="xs" aria-live="polite" role="status">
                <Text size="sm">Status:</Text>
                <StatusBadge status={delivery.status} />
                {retried && <Text size="sm">{delivery.status === "done" ? "Delivered after the retry." : "Queued again by the retry."}</Text>}
              </Group>
              {(delivery.status === "parked" || delivery.status === "done") && (
                <Button onClick={() => retry.mutate(input)} loading={retry.isPending} disabled={!canRetry}>
                  Retry
                </Button>
              )}
            </Group>
            {!endpointActive && (
              <Text size="sm" c="dimmed">
                The endpoint is disabled: enable it before retrying.
              </Text>
            )}
            {retry.error && <ProblemAlert error={retry.error} title="Retry refused" />}
            <FieldList cols={3} fields={fields} />
            <Title order={3} size="h5">
              Attempt history
            </Title>
            {delivery.attempt_history.length === 0 ? (
              <Text c="dimmed">No attempts yet.</Text>
            ) : (
              <Table.ScrollContainer minWidth={600}>
                <Table striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">Attempt</Table.Th>
                      <Table.Th scope="col">Time</Table.Th>
                      <Table.Th scope="col">Status code</Table.Th>
                      <Table.Th scope="col">Duration</Table.Th>
                      <Table.Th scope="col">Error</Table.Th>
                      <Table.Th scope="col">Receiver's answer (excerpt)</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {delivery.attempt_history.map((attempt) => (
                      <Table.Tr key={attempt.id}>
                        <Table.Td>{attempt.attempt}</Table.Td>
                        <Table.Td>{formatTime(attempt.started_at)}</Table.Td>
                        <Table.Td>{attempt.status_code ?? "no answer"}</Table.Td>
                        <Table.Td>{formatDuration(attempt.duration_ms)}</Table.Td>
                        <Table.Td>{attempt.error ?? "—"}</Table.Td>
                        <Table.Td>{attempt.response_body_excerpt ? <Code>{attempt.response_body_excerpt}</Code> : "—"}</Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
            <Title order={3} size="h5">
              Payload
            </Title>
            <Code block>
              {JSON.stringify(delivery.payload, null, 2)}
            </Code>
          </Stack>
        );
      }}
    </QueryState>
  );
}
