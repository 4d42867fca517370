import { Alert, Button, Code, Drawer, Group, Stack, Table, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent, type ReactNode } from "react";
import { LabelledCopyValue } from "../../components/copy-value.tsx";
import { formatTime } from "../../components/format.ts";
import { ProviderKeyInputs, useKeyValues } from "../../components/provider-key-inputs.tsx";
import { ProblemAlert, QueryState } from "../../components/query-state.tsx";
import { StatusBadge, YesNoBadge } from "../../components/status-badge.tsx";
import { WarningAlert } from "../../components/warning.tsx";
import { useTRPC } from "../../trpc.ts";

interface Props {
  tenantId: string;
  provider: { slug: string; name: string } | null;
  onClose: () => void;
}

/** The tenant's own keys of one provider: read (never values), set or rotate, remove. */
export function TenantProviderKeysDrawer({ tenantId, provider, onClose }: Props) {
  return (
    <Drawer closeButtonProps={{ "aria-label": "Close" }} opened={provider !== null} onClose={onClose} position="right" size="xl" title={provider ? `Own keys of ${provider.name}` : "Own keys"}>
      {provider && <KeysPanel key={provider.slug} tenantId={tenantId} provider={provider} />}
    </Drawer>
  );
}

type Step = "edit" | "confirm-save" | "confirm-remove";

function KeysPanel({ tenantId, provider }: { tenantId: string; provider: { slug: string; name: string } }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const input = { tenant_id: tenantId, provider: provider.slug };
  const keys = useQuery(trpc.adminProviders.getTenantProviderKeys.queryOptions(input));
  const pipeline = useQuery(trpc.adminMirrors.getTenantPipeline.queryOptions({ tenant_id: tenantId }));
  const form = useKeyValues();
  const [step, setStep] = useState<Step>("edit");
  const [outcome, setOutcome] = useState<string | null>(null);

  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.adminProviders.getTenantProviderKeys.queryKey(input) }),
      queryClient.invalidateQueries({ queryKey: trpc.adminProviders.listTenantProviders.queryKey({ tenant_id: tenantId }) }),
      queryClient.invalidateQueries({ queryKey: trpc.adminMirrors.getTenantPipeline.queryKey({ tenant_id: tenantId }) }),
    ]);
  const reconnectText = (count: number) =>
    count === 0 ? "No connection has to reconnect (reauth_required: 0)." : `${count} connection${count === 1 ? "" : "s"} must reconnect (reauth_required: ${count}).`;

  // The typed values are secrets: gcTime 0 and reset() after the answer keep them out of the mutation cache.
  const save = useMutation(
    trpc.adminProviders.setTenantProviderKeys.mutationOptions({
      gcTime: 0,
      onSuccess: (answer) => {
        setOutcome(`Keys saved. ${reconnectText(answer.reauth_required)}`);
        form.clear();
        setStep("edit");
        save.reset();
        return refresh();
      },
      onError: () => setStep("edit"),
    }),
  );
  const remove = useMutation(
    trpc.adminProviders.deleteTenantProviderKeys.mutationOptions({
      onSuccess: (answer) => {
        setOutcome(`Own keys removed; the tenant uses the instance's keys again. ${reconnectText(answer.reauth_required)}`);
        setStep("edit");
        return refresh();
      },
      onError: () => setStep("edit"),
    }),
  );

  const source = pipeline.data?.sources.find((s) => s.slug === provider.slug);
  const connections = source?.connections;

  function review(event: FormEvent) {
    event.preventDefault();
    if (!form.check(keys.data?.keys ?? [])) return;
    setOutcome(null);
    save.reset();
    setStep("confirm-save");
  }

  function confirmSave() {
    save.mutate({ ...input, keys: form.toSave() });
  }

  return (
    <QueryState query={keys}>
      {() => {
        const current = keys.data!;
        return (
          <Stack>
            <Group gap="sm">
              <Text fw={600}>Status</Text>
              <StatusBadge status={current.status} />
              {current.client_id && (
                <Text size="sm">
                  Client id <Code>{current.client_id}</Code>
                </Text>
              )}
            </Group>
            {current.error && (
              <Alert color="red" title="The provider refuses these keys">
                {current.error}
              </Alert>
            )}
            {current.set && (
              <Text size="sm" c="dimmed">
                Saved {formatTime(current.updated_at)} by admin key <Code>{current.updated_by ?? "—"}</Code>.
              </Text>
            )}
            <Table>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Key</Table.Th>
                  <Table.Th>Required</Table.Th>
                  <Table.Th>Secret</Table.Th>
                  <Table.Th>Set</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {current.keys.map((key) => (
                  <Table.Tr key={key.name}>
                    <Table.Td>
                      <Code>{key.name}</Code>
                    </Table.Td>
                    <Table.Td>{key.required ? "Required" : "Optional"}</Table.Td>
                    <Table.Td>{key.secret ? "Secret" : "Public"}</Table.Td>
                    <Table.Td>
                      <YesNoBadge value={key.set} yes="Set" no="Not set" />
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <Title order={3} size="h5">
              Register at the provider
            </Title>
            <LabelledCopyValue label="Redirect URL" value={current.urls.redirect} />
            <LabelledCopyValue label="Inbound URL" value={current.urls.inbound} />

            <div role="status" aria-live="polite">
              {outcome && (
                <Alert color="blue" title="Done">
                  {outcome}
                </Alert>
              )}
            </div>

            {step === "confirm-remove" ? (
              <Stack>
                <Title order={3} size="h5">
                  Remove own keys?
                </Title>
                <Consequence connections={connections} loading={pipeline.isPending} error={pipeline.error} providerName={provider.name}>
                  Without own keys the tenant uses the instance's keys. Its active connections made with its own keys then have
                  no application and move to needs_reauth: those users must reconnect (their connections made with the
                  instance's keys are kept).
                </Consequence>
                <Group justify="flex-end">
                  <Button variant="default" onClick={() => setStep("edit")}>
                    Cancel
                  </Button>
                  <Button color="red" loading={remove.isPending} onClick={() => remove.mutate(input)}>
                    Remove keys
                  </Button>
                </Group>
              </Stack>
            ) : (
              <form onSubmit={review} aria-labelledby="own-keys-form-title">
                <Stack>
                  <Title order={3} size="h5" id="own-keys-form-title">
                    {current.set ? "Rotate or replace the keys" : "Set own keys"}
                  </Title>
                  <Text size="sm" c="dimmed">
                    Saving replaces every key: enter all of them. Values are sealed and never shown again.
                  </Text>
                  <ProviderKeyInputs keys={current.keys} form={form} disabled={step === "confirm-save"} />
                  {save.error && <ProblemAlert error={save.error} title="The keys were not saved" />}
                  {remove.error && <ProblemAlert error={remove.error} title="The keys were not removed" />}
                  {step === "confirm-save" ? (
                    <Stack>
                      <Title order={4} size="h6">
                        Before saving
                      </Title>
                      <Consequence connections={connections} loading={pipeline.isPending} error={pipeline.error} providerName={provider.name}>
                        {current.set
                          ? "If the new keys name another application than the current ones (another CLIENT_ID or another application key), the tenant's active connections made with its current keys move to needs_reauth and those users must reconnect. A new secret of the same application keeps them."
                          : "If these keys name another application than the instance's keys (another CLIENT_ID or another application key), the tenant's active connections made with the instance's keys move to needs_reauth and those users must reconnect."}
                      </Consequence>
                      <Group justify="flex-end">
                        <Button variant="default" onClick={() => setStep("edit")} disabled={save.isPending}>
                          Back
                        </Button>
                        <Button onClick={confirmSave} loading={save.isPending}>
                          Save keys
                        </Button>
                      </Group>
                    </Stack>
                  ) : (
                    <Group justify="space-between">
                      {current.set ? (
                        <Button color="red" variant="outline" onClick={() => (setOutcome(null), remove.reset(), setStep("confirm-remove"))}>
                          Remove own keys
                        </Button>
                      ) : (
                        <span />
                      )}
                      <Button type="submit">Review and save</Button>
                    </Group>
                  )}
                </Stack>
              </form>
            )}
          </Stack>
        );
      }}
    </QueryState>
  );
}

/** What a change of keys means for the tenant's connections of the provider (from its pipeline). */
function Consequence({
  connections,
  loading,
  error,
  providerName,
  children,
}: {
  connections: { active: number; needs_reauth: number; disconnected: number } | undefined;
  loading: boolean;
  error: unknown;
  providerName: string;
  children: ReactNode;
}) {
  let count: string;
  if (error) count = "The tenant's connections could not be counted.";
  else if (loading) count = "Counting the tenant's connections…";
  else if (!connections) count = `The tenant has no connection of ${providerName}.`;
  else
    count = `The tenant has ${connections.active} active connection${connections.active === 1 ? "" : "s"} of ${providerName} (${connections.needs_reauth} already waiting to reconnect, ${connections.disconnected} disconnected).`;
  return (
    <WarningAlert title="Consequence for the tenant's connections">
      <Stack gap="xs">
        <Text size="sm">{count}</Text>
        <Text size="sm">{children}</Text>
      </Stack>
    </WarningAlert>
  );
}
