// Where every table of the schema goes when the database is distributed by user on Citus
// (docs/deployment.md, "Distributing on Citus"). test/table-distribution.test.ts checks the
// live catalog of a migrated database against it: a table missing here fails the test.

/** How a table is placed on a Citus cluster. */
export type TablePlacement =
  /**
   * One user's data: hash-distributed by user_id, co-located with the other such tables. Its
   * primary and unique keys hold user_id, and so do its foreign keys to other such tables.
   * `partOf`: the table it belongs to (a session's phases), whose user it shares.
   */
  | { kind: "by_user"; partOf?: string }
  /** Replicated to every node: small, rarely written, referenced by distributed tables or found by a secret's hash. */
  | { kind: "reference"; why: string }
  /** Left on the coordinator: queues, logs and counters read across users. */
  | { kind: "coordinator"; why: string };

const byUser = (partOf?: string): TablePlacement => (partOf ? { kind: "by_user", partOf } : { kind: "by_user" });
const reference = (why: string): TablePlacement => ({ kind: "reference", why });
const coordinator = (why: string): TablePlacement => ({ kind: "coordinator", why });

/** Every table of the schema `public` (views aside), by name. */
export const TABLE_DISTRIBUTION: Readonly<Record<string, TablePlacement>> = {
  raw_objects: byUser(),
  quantity_sample_series: byUser(),
  quantity_sample_chunks: byUser("quantity_sample_series"),
  quantity_sample_rollups: byUser("quantity_sample_series"),
  quantity_sample_merged_rollups: byUser("quantity_sample_series"),
  quantity_sample_merged_dirty: byUser(),
  quantity_sample_streams: byUser(),
  category_sample_series: byUser(),
  category_samples: byUser("category_sample_series"),
  category_samples_legacy: byUser(),
  sleep_sessions: byUser(),
  sleep_phases: byUser("sleep_sessions"),
  workouts: byUser(),
  workout_route_chunks: byUser("workouts"),
  workout_route_points_legacy: byUser("workouts"),
  workout_track_summaries: byUser("workouts"),
  nutrition_logs: byUser(),
  daily_summaries: byUser(),
  heartbeat_series: byUser(),
  rr_interval_chunks: byUser("heartbeat_series"),
  rr_intervals_legacy: byUser("heartbeat_series"),
  hrv_results: byUser("heartbeat_series"),
  menstrual_cycles: byUser(),
  ecg_recordings: byUser(),
  ecg_voltages: byUser("ecg_recordings"),
  rejected_records: byUser(),
  provider_tombstones: byUser(),
  source_orders: byUser(),
  source_consents: byUser(),
  time_tags: byUser(),
  shares: byUser(),
  connections: byUser(),
  sync_runs: byUser("connections"),
  push_subscriptions: byUser("connections"),

  tenants: reference("referenced by users"),
  users: reference("an external_ref is unique within its tenant, and every table of user data references users"),
  user_tokens: reference("found by the token's hash before its user is known"),
  connect_sessions: reference("found by the link token's hash before its user is known"),
  consent_states: reference("found by the OAuth state's hash on the provider's callback"),
  tenant_api_keys: reference("found by the key's hash on every tenant call"),
  admin_keys: reference("found by the key's hash"),
  tenant_providers: reference("configuration read on every upload and pull"),
  tenant_provider_keys: reference("configuration read on every pull"),
  instance_providers: reference("configuration read on every pull"),
  webhook_endpoints: reference("a tenant's configuration, referenced by webhook_deliveries"),

  outbox_events: coordinator("events of every user, delivered in the order they were written"),
  webhook_deliveries: coordinator("the delivery queue, read by status across users"),
  webhook_attempts: coordinator("part of webhook_deliveries"),
  idempotency_records: coordinator("keyed by the caller (a tenant or a user token), not by user"),
  deletion_jobs: coordinator("outlive the user they delete"),
  tenant_deletion_jobs: coordinator("outlive the tenant they delete"),
  audit_entries: coordinator("the instance's and the tenants' logs, read across users"),
  rate_limits: coordinator("written on every call, keyed by the caller"),
  provider_quotas: coordinator("shared by every user of a provider application"),
  fhir_exports: coordinator("a tenant's export runs, read by state and expiry across users"),
  fhir_export_files: coordinator("part of fhir_exports"),
  _prisma_migrations: coordinator("the migrations' bookkeeping"),
  quantity_samples_legacy: coordinator("samples an upgrade left one row each, keyed by id alone: the job data-moves empties it, finish that before distributing"),
};
