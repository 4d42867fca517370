import { Anchor, Code, Group, NativeSelect, Paper, Stack, Table, Text, Title } from "@mantine/core";
import { useInfiniteQuery, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link, useParams } from "react-router";
import { SectionBoundary } from "../../components/section-boundary.tsx";
import { FieldList } from "../../components/field-list.tsx";
import { formatTime } from "../../components/format.ts";
import { byCursor, PAGE_LIMIT, PagedList } from "../../components/paged-list.tsx";
import { QueryState } from "../../components/query-state.tsx";
import { StatusBadge } from "../../components/status-badge.tsx";
import { useTenantId } from "../../layout/tenant-layout.tsx";
import { useTRPC } from "../../trpc.ts";
import { DeliveryDrawer } from "./delivery-drawer.tsx";
import { RotateSecretButton } from "./rotate-secret-button.tsx";
import { eventTypesText, WebhookHealth } from "./webhook-health.tsx";

const STATUSES = ["pending", "running", "done", "parked"] as const;
type Status = (typeof STATUSES)[number];

/** One webhook endpoint: its settings and health, its deliveries (by status), a delivery's detail, secret rotation. */
export function WebhookPage() {
  const tenantId = useTenantId();
  const { webhookId = "" } = useParams();
  const trpc = useTRPC();
  const endpoint = useQuery(trpc.adminMirrors.getTenantWebhook.queryOptions({ tenant_id: tenantId, webhook_id: webhookId }));
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={3}>Webhook endpoint</Title>
        <Anchor component={Link} to={`/tenants/${tenantId}/webhooks`}>
          All endpoints
        </Anchor>
      </Group>
      <QueryState query={endpoint}>
        {() =>
          endpoint.data && (
            <>
              <SectionBoundary name="The endpoint">
                <Paper withBorder p="sm">
                  <Stack gap="sm">
                    <Group justify="space-between" align="start">
                      <Text fw={600} style={{ wordBreak: "break-all" }}>
                        {endpoint.data.url}
                      </Text>
                      <RotateSecretButton tenantId={tenantId} webhookId={webhookId} />
                    </Group>
                    <FieldList
                      cols={{ base: 1, sm: 3 }}
                      fields={[
                        ["Id", <Code key="id">{endpoint.data.id}</Code>],
                        ["Status", <StatusBadge key="status" status={endpoint.data.status === "active" ? "enabled" : "disabled"} />],
                        ["Health", <WebhookHealth key="health" endpoint={endpoint.data} />],
                        ["Events", eventTypesText(endpoint.data.event_types)],
                        ["Description", endpoint.data.description || "—"],
                        ["Created", formatTime(endpoint.data.created_at)],
                      ]}
                    />
                  </Stack>
                </Paper>
              </SectionBoundary>
              <SectionBoundary name="Deliveries">
                <Deliveries tenantId={tenantId} webhookId={webhookId} endpointActive={endpoint.data.status === "active"} />
              </SectionBoundary>
            </>
          )
        }
      </QueryState>
    </Stack>
  );
}

function Deliveries({ tenantId, webhookId, endpointActive }: { tenantId: string; webhookId: string; endpointActive: boolean }) {
  const trpc = useTRPC();
  const [status, setStatus] = useState<Status | "">("");
  const [open, setOpen] = useState<number | null>(null);
  const query = useInfiniteQuery(
    trpc.adminMirrors.listTenantWebhookDeliveries.infiniteQueryOptions({ tenant_id: tenantId, webhook_id: webhookId, limit: PAGE_LIMIT, ...(status && { status }) }, byCursor),
  );
  return (
    <Stack gap="xs" component="section" aria-labelledby="deliveries-heading">
      <Group justify="space-between" align="end">
        <Title order={4} id="deliveries-heading">
          Deliveries
        </Title>
        <NativeSelect
          label="Status"
          value={status}
          onChange={(event) => setStatus(event.currentTarget.value as Status | "")}
          data={[{ value: "", label: "Every status" }, ...STATUSES.map((s) => ({ value: s, label: s }))]}
          w={180}
        />
      </Group>
      <PagedList query={query} noun="deliveries" empty={`No deliveries${status ? ` with status ${status}` : ""}.`}>
        {(deliveries) => (
          <Table.ScrollContainer minWidth={800}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Delivery</Table.Th>
                  <Table.Th scope="col">Event</Table.Th>
                  <Table.Th scope="col">Status</Table.Th>
                  <Table.Th scope="col">Attempts</Table.Th>
                  <Table.Th scope="col">Last answer</Table.Th>
                  <Table.Th scope="col">Created</Table.Th>
                  <Table.Th scope="col">Delivered</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {deliveries.map((delivery) => (
                  <Table.Tr key={delivery.id}>
                    <Table.Td>
                      <Anchor component="button" type="button" size="sm" onClick={() => setOpen(delivery.id)}>
                        Delivery {delivery.id}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{delivery.event_type}</Table.Td>
                    <Table.Td>
                      <StatusBadge status={delivery.status} />
                    </Table.Td>
                    <Table.Td>{delivery.attempts}</Table.Td>
                    <Table.Td>{delivery.last_error ?? (delivery.last_status_code === null ? "—" : `HTTP ${delivery.last_status_code}`)}</Table.Td>
                    <Table.Td>{formatTime(delivery.created_at)}</Table.Td>
                    <Table.Td>{formatTime(delivery.delivered_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </PagedList>
      <DeliveryDrawer tenantId={tenantId} webhookId={webhookId} deliveryId={open} endpointActive={endpointActive} onClose={() => setOpen(null)} />
    </Stack>
  );
}
