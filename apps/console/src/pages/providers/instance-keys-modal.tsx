import { Button, Group, Modal, Stack, Text, Title } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ProviderKeyInputs, useKeyValues } from "../../components/provider-key-inputs.tsx";
import { ProblemAlert } from "../../components/query-state.tsx";
import { WarningAlert } from "../../components/warning.tsx";
import { useTRPC } from "../../trpc.ts";
import type { InstanceProvider } from "./instance-provider.ts";

interface Props {
  provider: InstanceProvider | null;
  onClose: () => void;
  onSaved: (message: string) => void;
}

/** Saves the instance's keys of a provider from the console (replaces all; 409 while the environment sets them). */
export function InstanceKeysModal({ provider, onClose, onSaved }: Props) {
  return (
    <Modal closeButtonProps={{ "aria-label": "Close" }} opened={provider !== null} onClose={onClose} size="lg" title={provider ? `Console keys of ${provider.name}` : "Console keys"}>
      {provider && <KeysForm key={provider.slug} provider={provider} onClose={onClose} onSaved={onSaved} />}
    </Modal>
  );
}

function KeysForm({ provider, onClose, onSaved }: { provider: InstanceProvider; onClose: () => void; onSaved: (message: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const form = useKeyValues();
  const [confirming, setConfirming] = useState(false);
  // The typed values are secrets: gcTime 0 keeps them out of the mutation cache once the modal closes.
  const save = useMutation(
    trpc.adminProviders.setInstanceProviderKeys.mutationOptions({
      gcTime: 0,
      onSuccess: async (answer) => {
        const count = answer.reauth_required;
        onSaved(
          `Keys of ${answer.name} saved. ${count === 0 ? "No connection has to reconnect" : `${count} connection${count === 1 ? "" : "s"} must reconnect`} (reauth_required: ${count}).`,
        );
        await queryClient.invalidateQueries({ queryKey: trpc.adminProviders.listInstanceProviders.pathKey() });
        onClose();
      },
      onError: () => setConfirming(false),
    }),
  );

  function review(event: FormEvent) {
    event.preventDefault();
    if (!form.check(provider.keys)) return;
    save.reset();
    setConfirming(true);
  }

  function confirm() {
    save.mutate({ provider: provider.slug, keys: form.toSave() });
  }

  return (
    <form onSubmit={review}>
      <Stack>
        {provider.source === "env" && (
          <WarningAlert title="The environment configures this provider">
            Environment variables win over keys saved from the console as a whole: the instance refuses console keys
            (409) while they are set. Change the environment instead.
          </WarningAlert>
        )}
        <Text size="sm" c="dimmed">
          Saving replaces every saved key: enter all of them. Values are sealed and never shown again (public keys show
          their value in the list).
        </Text>
        <ProviderKeyInputs keys={provider.keys} form={form} disabled={confirming} />
        {save.error && <ProblemAlert error={save.error} title="The keys were not saved" />}
        {confirming ? (
          <Stack>
            <Title order={3} size="h5">
              Before saving
            </Title>
            <WarningAlert title="Consequence for connections">
              If these keys name another application than the instance's current keys (another CLIENT_ID or another
              application key), every tenant's active connections made with the instance's keys move to needs_reauth and
              those users must reconnect. Tenants with their own keys are not affected.
            </WarningAlert>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(false)} disabled={save.isPending}>
                Back
              </Button>
              <Button onClick={confirm} loading={save.isPending}>
                Save keys
              </Button>
            </Group>
          </Stack>
        ) : (
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit">Review and save</Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}
