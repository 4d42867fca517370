import { Alert, Button, Group, Modal, Stack, Text, TextInput } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { CopyValue } from "../../components/copy-value.tsx";
import { ProblemAlert } from "../../components/query-state.tsx";
import { WarningAlert } from "../../components/warning.tsx";
import { useTRPC } from "../../trpc.ts";

/**
 * Asks for a name, creates the tenant, then shows its first API key once. The key lives only
 * in this mutation's state (gcTime 0, reset on close): it is never put in the query cache.
 */
export function CreateTenantModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const create = useMutation(
    trpc.adminTenants.createTenant.mutationOptions({
      gcTime: 0,
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.adminTenants.listTenants.pathKey() }),
    }),
  );
  const created = create.data;

  function close() {
    create.reset();
    setName("");
    onClose();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate({ name });
  }

  return (
    // While the key is shown, only "Done" closes the dialog: Escape or a stray click must not lose it.
    <Modal
      closeButtonProps={{ "aria-label": "Close" }}
      opened={opened}
      onClose={close}
      title={created ? "Tenant created" : "Create tenant"}
      size="lg"
      closeOnEscape={!created}
      closeOnClickOutside={!created}
      withCloseButton={!created}
    >
      {created ? (
        <Stack>
          <Text>
            <strong>{created.name}</strong> was created. Its API key:
          </Text>
          <CopyValue label="tenant API key" value={created.api_key} />
          <WarningAlert title="Store this key now" role="status">
            This is the only time the key is shown: only its hash is stored. Copy it into the tenant's backend
            before closing this dialog.
          </WarningAlert>
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit}>
          <Stack>
            <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} required maxLength={100} data-autofocus />
            {create.error && <ProblemAlert error={create.error} />}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={create.isPending}>
                Create
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
