import { Button, Code, CopyButton, Group, Modal, Paper, Stack, Text } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { ProblemAlert } from "../../components/query-state.tsx";
import { useTRPC } from "../../trpc.ts";

/**
 * Rotates the endpoint's signing secret after a confirmation and shows the new one once. The
 * answer lives only in this mutation (gcTime 0) and is dropped when the dialog closes.
 */
export function RotateSecretButton({ tenantId, webhookId }: { tenantId: string; webhookId: string }) {
  const trpc = useTRPC();
  const [opened, setOpened] = useState(false);
  const rotate = useMutation({ ...trpc.adminMirrors.rotateTenantWebhookSecret.mutationOptions(), gcTime: 0 });
  const close = () => {
    setOpened(false);
    rotate.reset();
  };
  return (
    <>
      <Button variant="default" color="red" onClick={() => setOpened(true)}>
        Rotate secret
      </Button>
      {/* While the new secret is shown, only "Done" closes the dialog: Escape or a stray click must not lose it. */}
      <Modal
        opened={opened}
        onClose={close}
        title="Rotate the signing secret"
        size="lg"
        closeButtonProps={{ "aria-label": "Close" }}
        closeOnEscape={!rotate.data}
        closeOnClickOutside={!rotate.data}
        withCloseButton={!rotate.data}
      >
        {rotate.data ? (
          <Stack>
            <Paper withBorder p="sm" role="note">
              <Text fw={700}>Shown only now</Text>
              <Text size="sm">Hand this secret to the tenant; it cannot be read again. Every attempt from now on is signed with it.</Text>
            </Paper>
            <Text size="sm" fw={500}>
              New signing secret
            </Text>
            <Code block>{rotate.data.secret}</Code>
            <Group justify="flex-end">
              <CopyButton value={rotate.data.secret}>
                {({ copied, copy }) => (
                  <Button variant="default" onClick={copy}>
                    {copied ? "Copied" : "Copy secret"}
                  </Button>
                )}
              </CopyButton>
              <Button onClick={close}>Done</Button>
            </Group>
          </Stack>
        ) : (
          <Stack>
            <Text>
              The current secret stops working at once: the tenant's receiver must switch to the new one, or it will refuse the next deliveries.
            </Text>
            {rotate.error && <ProblemAlert error={rotate.error} />}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button color="red" loading={rotate.isPending} onClick={() => rotate.mutate({ tenant_id: tenantId, webhook_id: webhookId })}>
                Rotate now
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </>
  );
}
