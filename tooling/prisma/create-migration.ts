// Creates prisma/migrations/<timestamp>_<name>/migration.sql from the changes in
// prisma/schema.prisma since the last committed migration. Offline: the committed
// migrations are applied to a scratch embedded PostgreSQL and diffed against the schema.
//   npm run migrate:create -- <name>
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { migrationsDir } from "@svc/db";
import { withMigratedScratchDatabase } from "./scratch-database.ts";
import { diffDatabaseToSchema } from "./schema-diff.ts";

const name = (process.argv[2] ?? "").toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_|_$/g, "");
if (!name) {
  console.error("usage: npm run migrate:create -- <name>");
  process.exit(2);
}

const sql = await withMigratedScratchDatabase(diffDatabaseToSchema);
if (!sql) {
  console.log("The schema and the migrations agree: nothing to create.");
  process.exit(0);
}
const stamp = new Date().toISOString().replace(/[-:T]/g, "").slice(0, 14);
const folder = path.join(migrationsDir(), `${stamp}_${name}`);
mkdirSync(folder, { recursive: true });
writeFileSync(path.join(folder, "migration.sql"), sql);
console.log(`Created ${path.relative(process.cwd(), folder)}/migration.sql`);
