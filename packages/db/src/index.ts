export { createDatabase, poolUse, streamRows, type Database, type PoolUse } from "./client.ts";
export { applyMigrations, readMigrations, REPLACED_CHECKSUMS, type Migration } from "./migrations.ts";
export { readMigrationState, type MigrationState } from "./migration-state.ts";
export { embeddedPostgresExists, openEmbeddedPostgres, type RunningPostgres } from "./embedded-postgres.ts";
export { findRepoRoot, migrationsDir, schemaPath } from "./repo-root.ts";
export { Prisma, PrismaClient } from "./generated/prisma/client.ts";
export type * from "./generated/prisma/client.ts";
