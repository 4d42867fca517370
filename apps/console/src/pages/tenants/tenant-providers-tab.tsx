import { Button, Stack, Switch, Table, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ProblemAlert, QueryState } from "../../components/query-state.tsx";
import { AvailabilityBadge } from "../../components/availability-badge.tsx";
import { availabilityOf } from "../../components/provider-availability.ts";
import { StatusBadge } from "../../components/status-badge.tsx";
import { useTenantId } from "../../layout/tenant-layout.tsx";
import { useTRPC } from "../../trpc.ts";
import { TenantProviderKeysDrawer } from "./tenant-provider-keys-drawer.tsx";

interface ProviderRow {
  slug: string;
  name: string;
  kinds: Array<"oauth" | "push" | "device">;
  instance_status: string;
  enabled: boolean;
  own_keys: boolean;
  available: boolean;
}

/** Whether a provider takes keys: OAuth and push providers, not device or built-in ones. */
const takesKeys = (provider: ProviderRow) => !provider.kinds.includes("device") && provider.instance_status !== "built_in";

/** The tenant's providers: the admin switch per provider and the tenant's own keys. */
export function TenantProvidersTab() {
  const tenantId = useTenantId();
  const trpc = useTRPC();
  const providers = useQuery(trpc.adminProviders.listTenantProviders.queryOptions({ tenant_id: tenantId }));
  const [keysOf, setKeysOf] = useState<{ slug: string; name: string } | null>(null);
  const [announcement, setAnnouncement] = useState("");
  return (
    <Stack>
      <Title order={3}>Providers</Title>
      <Text size="sm" c="dimmed">
        Switched off, a provider leaves GET /v1/providers and the connect page for this tenant; connections and data are kept.
      </Text>
      <Text size="sm" role="status" aria-live="polite">
        {announcement}
      </Text>
      <QueryState query={providers}>
        {() => (
          <Table.ScrollContainer minWidth={800}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Provider</Table.Th>
                  <Table.Th>Kinds</Table.Th>
                  <Table.Th>Instance status</Table.Th>
                  <Table.Th>Available to this tenant</Table.Th>
                  <Table.Th>Tenant switch</Table.Th>
                  <Table.Th>Own keys</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {providers.data?.data.map((provider) => (
                  <Table.Tr key={provider.slug}>
                    <Table.Td>
                      <Text fw={600} size="sm">
                        {provider.name}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {provider.slug}
                      </Text>
                    </Table.Td>
                    <Table.Td>{provider.kinds.join(", ")}</Table.Td>
                    <Table.Td>
                      <StatusBadge status={provider.instance_status} />
                    </Table.Td>
                    <Table.Td>
                      <AvailabilityBadge availability={availabilityOf(provider)} />
                    </Table.Td>
                    <Table.Td>
                      <ProviderSwitch tenantId={tenantId} provider={provider} onChanged={setAnnouncement} />
                    </Table.Td>
                    <Table.Td>
                      {takesKeys(provider) ? (
                        <Button size="compact-sm" variant="default" onClick={() => setKeysOf(provider)} aria-label={`Own keys of ${provider.name}`}>
                          {provider.own_keys ? "Own keys (set)" : "Own keys"}
                        </Button>
                      ) : (
                        <Text size="sm" c="dimmed">
                          No keys
                        </Text>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </QueryState>
      <TenantProviderKeysDrawer tenantId={tenantId} provider={keysOf} onClose={() => setKeysOf(null)} />
    </Stack>
  );
}

/** The admin switch of one provider for the tenant. */
function ProviderSwitch({ tenantId, provider, onChanged }: { tenantId: string; provider: ProviderRow; onChanged: (message: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const update = useMutation(
    trpc.adminProviders.updateTenantProvider.mutationOptions({
      onSuccess: (answer) => {
        onChanged(`${answer.name} switched ${answer.enabled ? "on" : "off"} for this tenant.`);
        return queryClient.invalidateQueries({ queryKey: trpc.adminProviders.listTenantProviders.queryKey({ tenant_id: tenantId }) });
      },
    }),
  );
  return (
    <Stack gap={4}>
      <Switch
        checked={update.isPending ? (update.variables?.enabled ?? provider.enabled) : provider.enabled}
        disabled={update.isPending}
        onChange={(event) => update.mutate({ tenant_id: tenantId, provider: provider.slug, enabled: event.currentTarget.checked })}
        aria-label={`Enable ${provider.name} for this tenant`}
      />
      {update.error && <ProblemAlert error={update.error} />}
    </Stack>
  );
}
