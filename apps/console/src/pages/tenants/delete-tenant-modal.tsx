import { Button, Group, List, Modal, Stack, Text, TextInput } from "@mantine/core";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { ProblemAlert } from "../../components/query-state.tsx";
import { WarningAlert } from "../../components/warning.tsx";
import { useTRPC } from "../../trpc.ts";
import { TenantDeletionProgress } from "./tenant-deletion-progress.tsx";

export interface DeletableTenant {
  id: string;
  name: string;
  users: number;
}

/**
 * Deletes a tenant after its name is typed again (DELETE /v1/admin/tenants/{tenant_id}), then
 * follows the deletion until it ends. Closing the dialog leaves the deletion running.
 */
export function DeleteTenantModal({ tenant, opened, onClose }: { tenant: DeletableTenant; opened: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [typed, setTyped] = useState("");
  const remove = useMutation(
    trpc.adminTenants.deleteTenant.mutationOptions({
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.adminTenants.listTenants.pathKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.adminTenants.getTenant.queryKey({ tenant_id: tenant.id }) }),
        ]),
    }),
  );
  const matches = typed === tenant.name;

  function close() {
    setTyped("");
    remove.reset();
    onClose();
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (matches) remove.mutate({ tenant_id: tenant.id });
  }

  return (
    <Modal closeButtonProps={{ "aria-label": "Close" }} opened={opened} onClose={close} title={`Delete ${tenant.name}`} size="lg">
      {remove.data ? (
        <Stack>
          <TenantDeletionProgress jobId={remove.data.job_id} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Close
            </Button>
            <Button
              onClick={() => {
                close();
                navigate("/tenants");
              }}
            >
              Back to tenants
            </Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={submit}>
          <Stack>
            <WarningAlert title="This cannot be undone">
              <Text size="sm">Deleting the tenant removes, for good:</Text>
              <List size="sm" mt={4}>
                <List.Item>its {tenant.users === 1 ? "1 user" : `${tenant.users} users`} with all their records, raw files, connections (grants are revoked at the providers), shares and consents;</List.Item>
                <List.Item>its API keys (refused at once) and its users' tokens;</List.Item>
                <List.Item>its webhook endpoints with their deliveries: nothing more is sent to them;</List.Item>
                <List.Item>its provider settings and own provider keys, and its own audit entries.</List.Item>
              </List>
              <Text size="sm" mt={4}>
                The instance's audit log keeps the admins' entries about it, this deletion among them.
              </Text>
            </WarningAlert>
            <TextInput
              label="Tenant name"
              description={`Type ${tenant.name} to confirm.`}
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              autoComplete="off"
              data-autofocus
            />
            {remove.error && <ProblemAlert error={remove.error} />}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" color="red.9" disabled={!matches} loading={remove.isPending}>
                Delete tenant
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
