export { createDatabase, type Database } from "./client.ts";
export { applyMigrations, readMigrations, type Migration } from "./migrations.ts";
export { openEmbeddedPostgres, type RunningPostgres } from "./embedded-postgres.ts";
export { findRepoRoot, migrationsDir, schemaPath } from "./repo-root.ts";
export { Prisma, PrismaClient } from "./generated/prisma/client.ts";
export type * from "./generated/prisma/client.ts";
