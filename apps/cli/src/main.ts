import { Command } from "commander";
import { createAdminKey, createTenant } from "@svc/core";
import { withDatabase } from "./database.ts";
import { readCliEnv } from "./env.ts";

const program = new Command("svc").description("svc command line").showHelpAfterError();

const admin = program.command("admin").description("instance administration");

admin
  .command("tenant")
  .description("tenants")
  .command("create")
  .description("create a tenant and print its first API key (shown once)")
  .requiredOption("--name <name>", "tenant name")
  .action(async ({ name }: { name: string }) => {
    const tenant = await withDatabase(readCliEnv(), (db) => createTenant(db, name));
    console.log(`tenant_id: ${tenant.tenant_id}`);
    console.log(`api_key:   ${tenant.api_key}`);
    console.error("Store the key now: it is kept only as a hash and cannot be shown again.");
  });

admin
  .command("key")
  .description("instance admin keys")
  .command("create")
  .description("create an instance admin key and print it (shown once)")
  .requiredOption("--name <name>", "a name for the key, e.g. who holds it")
  .action(async ({ name }: { name: string }) => {
    const key = await withDatabase(readCliEnv(), (db) => createAdminKey(db, name));
    console.log(`admin_key_id: ${key.id}`);
    console.log(`admin_key:    ${key.admin_key}`);
    console.error("Store the key now: it is kept only as a hash and cannot be shown again.");
  });

program
  .command("migrate")
  .description("apply pending database migrations and exit")
  .action(async () => {
    // withDatabase applies pending migrations before it runs anything.
    await withDatabase(readCliEnv(), async () => undefined);
    console.log("Migrations are up to date.");
  });

try {
  await program.parseAsync();
} catch (error) {
  console.error(`svc: ${(error as Error).message}`);
  process.exit(1);
}
