import { Button, Group, Modal, Stack, Text } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ProblemAlert } from "../../components/query-state.tsx";
import { useTRPC } from "../../trpc.ts";
import type { InstanceProvider } from "./instance-provider.ts";

interface Props {
  provider: InstanceProvider | null;
  onClose: () => void;
  onDeleted: (message: string) => void;
}

/** Confirms, then forgets the keys and switch saved from the console for a provider. */
export function DeleteInstanceConfigModal({ provider, onClose, onDeleted }: Props) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.adminProviders.deleteInstanceProvider.mutationOptions({
      onSuccess: async (answer) => {
        onDeleted(`Saved configuration of ${answer.name} deleted; its status is now ${answer.status}.`);
        await queryClient.invalidateQueries({ queryKey: trpc.adminProviders.listInstanceProviders.pathKey() });
        close();
      },
    }),
  );
  function close() {
    remove.reset();
    onClose();
  }
  return (
    <Modal closeButtonProps={{ "aria-label": "Close" }} opened={provider !== null} onClose={close} title={provider ? `Delete saved configuration of ${provider.name}?` : "Delete saved configuration?"}>
      {provider && (
        <Stack>
          <Text size="sm">
            The keys and the switch saved from the console are forgotten. Environment variables are untouched; connections
            and data are kept. Without keys from the environment the provider stops running with the instance's keys for
            tenants without their own keys.
          </Text>
          {remove.error && <ProblemAlert error={remove.error} />}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate({ provider: provider.slug })}>
              Delete
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
