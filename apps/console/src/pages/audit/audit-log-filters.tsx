import { Button, Group, NativeSelect, Switch, TextInput } from "@mantine/core";
import { useState, type FormEvent } from "react";
import { useSearchParams } from "react-router";

/** The filters of the audit log routes, as the address holds them (?actor_id=&action=&writes_only=true&user_id=). */
export interface AuditFilters {
  actor_id?: string;
  actor_kind?: "admin" | "tenant";
  action?: string;
  writes_only?: "true";
  user_id?: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The filters in the page's address, so a filtered log can be linked (the user page links its user's entries). */
export function useAuditFilters(): [AuditFilters, (filters: AuditFilters) => void] {
  const [params, setParams] = useSearchParams();
  const text = (name: string) => params.get(name)?.trim() || undefined;
  const kind = params.get("actor_kind");
  const filters: AuditFilters = {
    ...(text("actor_id") && { actor_id: text("actor_id") }),
    ...((kind === "admin" || kind === "tenant") && { actor_kind: kind }),
    ...(text("action") && { action: text("action") }),
    ...(params.get("writes_only") === "true" && { writes_only: "true" as const }),
    ...(text("user_id") && { user_id: text("user_id") }),
  };
  const set = (next: AuditFilters) => setParams(Object.fromEntries(Object.entries(next).filter(([, value]) => value !== undefined && value !== "")));
  return [filters, set];
}

/**
 * The filter form of an audit log: actor (key id; on a tenant's log also admin or tenant keys),
 * action (exactly), writes only (leaves out every `.read`), and user.
 */
export function AuditLogFilterForm({ filters, onChange, withActorKind }: { filters: AuditFilters; onChange: (filters: AuditFilters) => void; withActorKind: boolean }) {
  const [draft, setDraft] = useState<AuditFilters>(filters);
  const [errors, setErrors] = useState<{ actor_id?: string; user_id?: string }>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next: AuditFilters = {
      ...(draft.actor_id?.trim() && { actor_id: draft.actor_id.trim() }),
      ...(draft.actor_kind && { actor_kind: draft.actor_kind }),
      ...(draft.action?.trim() && { action: draft.action.trim() }),
      ...(draft.writes_only && { writes_only: "true" as const }),
      ...(draft.user_id?.trim() && { user_id: draft.user_id.trim() }),
    };
    const invalid = {
      ...(next.actor_id && !UUID.test(next.actor_id) && { actor_id: "A key id is a uuid" }),
      ...(next.user_id && !UUID.test(next.user_id) && { user_id: "A user id is a uuid" }),
    };
    setErrors(invalid);
    if (Object.keys(invalid).length === 0) onChange(next);
  };
  const clear = () => {
    setDraft({});
    setErrors({});
    onChange({});
  };
  return (
    <Group component="form" role="search" aria-label="Filter the audit log" align="end" wrap="wrap" onSubmit={submit}>
      <TextInput
        label="Actor (key id)"
        value={draft.actor_id ?? ""}
        error={errors.actor_id}
        onChange={(event) => setDraft({ ...draft, actor_id: event.currentTarget.value })}
        w={{ base: "100%", sm: 330 }}
      />
      {withActorKind && (
        <NativeSelect
          label="Actor kind"
          value={draft.actor_kind ?? ""}
          onChange={(event) => setDraft({ ...draft, actor_kind: (event.currentTarget.value || undefined) as AuditFilters["actor_kind"] })}
          data={[
            { value: "", label: "Any" },
            { value: "admin", label: "Instance admin keys" },
            { value: "tenant", label: "The tenant's keys" },
          ]}
        />
      )}
      <TextInput
        label="Action"
        placeholder="e.g. tenant.provider"
        value={draft.action ?? ""}
        onChange={(event) => setDraft({ ...draft, action: event.currentTarget.value })}
        maxLength={64}
      />
      <TextInput
        label="User id"
        value={draft.user_id ?? ""}
        error={errors.user_id}
        onChange={(event) => setDraft({ ...draft, user_id: event.currentTarget.value })}
        w={{ base: "100%", sm: 330 }}
      />
      <Switch
        label="Writes only"
        checked={draft.writes_only === "true"}
        onChange={(event) => setDraft({ ...draft, writes_only: event.currentTarget.checked ? "true" : undefined })}
        mb={8}
      />
      <Button type="submit">Filter</Button>
      {Object.keys(filters).length > 0 && (
        <Button variant="default" onClick={clear}>
          Clear filters
        </Button>
      )}
    </Group>
  );
}
