import { Alert, Anchor, Button, Code, Group, Paper, SimpleGrid, Stack, Switch, Table, Text, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { LabelledCopyValue } from "../../components/copy-value.tsx";
import { formatTime } from "../../components/format.ts";
import { ProblemAlert, QueryState } from "../../components/query-state.tsx";
import { SectionBoundary } from "../../components/section-boundary.tsx";
import { StatusBadge, YesNoBadge } from "../../components/status-badge.tsx";
import { WarningAlert } from "../../components/warning.tsx";
import { useTRPC } from "../../trpc.ts";
import { DeleteInstanceConfigModal } from "./delete-instance-config-modal.tsx";
import { InstanceKeysModal } from "./instance-keys-modal.tsx";
import type { InstanceProvider } from "./instance-provider.ts";
import { retirementNotice } from "./retirement-notice.ts";

const SOURCE_LABELS = { env: "Environment variables", console: "Saved from the console" } as const;

/** The instance's providers (OAuth and push ones as cards, device ones in one table): status, switch, keys and where they come from, addresses to register. */
export function InstanceProvidersPage() {
  const trpc = useTRPC();
  const providers = useQuery(trpc.adminProviders.listInstanceProviders.queryOptions({}));
  const [announcement, setAnnouncement] = useState("");
  const [editing, setEditing] = useState<InstanceProvider | null>(null);
  const [deleting, setDeleting] = useState<InstanceProvider | null>(null);
  return (
    <Stack>
      <Title order={2}>Instance providers</Title>
      <Text size="sm" c="dimmed">
        The instance's own keys of each provider, used by every tenant without its own keys. Environment variables win over
        keys saved from the console as a whole.
      </Text>
      <Text size="sm" role="status" aria-live="polite">
        {announcement}
      </Text>
      <QueryState query={providers}>
        {() => {
          const all = providers.data?.data ?? [];
          const devices = all.filter((provider) => provider.kinds.includes("device"));
          return (
            <Stack>
              {all
                .filter((provider) => !provider.kinds.includes("device"))
                .map((provider) => (
                  <SectionBoundary key={provider.slug} name={provider.name}>
                    <ProviderCard provider={provider} onAnnounce={setAnnouncement} onEditKeys={() => setEditing(provider)} onDelete={() => setDeleting(provider)} />
                  </SectionBoundary>
                ))}
              <SectionBoundary name="Device providers">
                <DeviceProviders providers={devices} />
              </SectionBoundary>
            </Stack>
          );
        }}
      </QueryState>
      <InstanceKeysModal provider={editing} onClose={() => setEditing(null)} onSaved={setAnnouncement} />
      <DeleteInstanceConfigModal provider={deleting} onClose={() => setDeleting(null)} onDeleted={setAnnouncement} />
    </Stack>
  );
}

function ProviderCard({
  provider,
  onAnnounce,
  onEditKeys,
  onDelete,
}: {
  provider: InstanceProvider;
  onAnnounce: (message: string) => void;
  onEditKeys: () => void;
  onDelete: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const titleId = `provider-${provider.slug}`;
  const retirement = retirementNotice(provider.retirement, new Date());
  const update = useMutation(
    trpc.adminProviders.updateInstanceProvider.mutationOptions({
      onSuccess: (answer) => {
        onAnnounce(`${answer.name} switched ${answer.enabled ? "on" : "off"} on the instance.`);
        return queryClient.invalidateQueries({ queryKey: trpc.adminProviders.listInstanceProviders.pathKey() });
      },
    }),
  );
  return (
    <Paper withBorder p="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start">
          <Group gap="sm">
            <Title order={3} size="h4" id={titleId}>
              {provider.name}
            </Title>
            <StatusBadge status={provider.status} />
            <Text size="sm" c="dimmed">
              {provider.slug} · {provider.kinds.join(", ")}
            </Text>
          </Group>
          <Switch
            label={`Enable ${provider.name} on this instance`}
            checked={update.isPending ? (update.variables?.enabled ?? provider.enabled) : provider.enabled}
            disabled={update.isPending}
            onChange={(event) => update.mutate({ provider: provider.slug, enabled: event.currentTarget.checked })}
          />
        </Group>
        {update.error && <ProblemAlert error={update.error} />}
        {retirement && provider.retirement && (
          <WarningAlert title={retirement.title}>
            {retirement.text}{" "}
            <Anchor href={provider.retirement.source} target="_blank" rel="noreferrer">
              The announcement
            </Anchor>
          </WarningAlert>
        )}
        {provider.error && (
          <Alert color="red" title="The keys are refused">
            {provider.error}
          </Alert>
        )}
        {provider.keys.length === 0 ? (
          <Text size="sm" c="dimmed">
            Built into the instance: no keys.
          </Text>
        ) : (
          <>
            <Text size="sm">
              Keys from: <strong>{provider.source ? SOURCE_LABELS[provider.source] : "nowhere yet"}</strong>
              {provider.updated_at && (
                <>
                  {" "}
                  · saved from the console {formatTime(provider.updated_at)}
                  {provider.updated_by && (
                    <>
                      {" "}
                      by admin key <Code>{provider.updated_by}</Code>
                    </>
                  )}
                </>
              )}
            </Text>
            <Table.ScrollContainer minWidth={600}>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Key</Table.Th>
                    <Table.Th>Environment variable</Table.Th>
                    <Table.Th>Required</Table.Th>
                    <Table.Th>Set</Table.Th>
                    <Table.Th>Value</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {provider.keys.map((key) => (
                    <Table.Tr key={key.name}>
                      <Table.Td>
                        <Code>{key.name}</Code>
                      </Table.Td>
                      <Table.Td>
                        <Code>{key.env}</Code>
                      </Table.Td>
                      <Table.Td>{key.required ? "Required" : "Optional"}</Table.Td>
                      <Table.Td>
                        <YesNoBadge value={key.set} yes="Set" no="Not set" />
                      </Table.Td>
                      <Table.Td>{key.value !== null ? <Code>{key.value}</Code> : <Text size="sm" c="dimmed">{key.secret ? "Secret, not shown" : "—"}</Text>}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </>
        )}
        {(provider.urls.redirect || provider.urls.inbound) && (
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <LabelledCopyValue label="Redirect URL" copyLabel={`redirect URL of ${provider.name}`} value={provider.urls.redirect} />
            <LabelledCopyValue label="Inbound URL" copyLabel={`inbound URL of ${provider.name}`} value={provider.urls.inbound} />
          </SimpleGrid>
        )}
        {(provider.keys.length > 0 || provider.updated_at) && (
          <Group>
            {provider.keys.length > 0 && (
              <Button variant="default" onClick={onEditKeys} aria-label={`Set console keys of ${provider.name}`}>
                Set console keys
              </Button>
            )}
            {provider.updated_at && (
              <Button color="red" variant="outline" onClick={onDelete} aria-label={`Delete saved configuration of ${provider.name}`}>
                Delete saved configuration
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/** Device providers in one table: data arrives by upload, no keys and no instance switch. */
function DeviceProviders({ providers }: { providers: InstanceProvider[] }) {
  if (providers.length === 0) return null;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="device-providers">
      <Stack gap="sm">
        <Title order={3} size="h4" id="device-providers">
          Device providers
        </Title>
        <Text size="sm" c="dimmed">
          Data arrives by upload: no keys and no instance switch. Switch them per tenant.
        </Text>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Provider</Table.Th>
              <Table.Th>Slug</Table.Th>
              <Table.Th>Status</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {providers.map((provider) => (
              <Table.Tr key={provider.slug}>
                <Table.Td>{provider.name}</Table.Td>
                <Table.Td>
                  <Code>{provider.slug}</Code>
                </Table.Td>
                <Table.Td>
                  <StatusBadge status={provider.status} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}
