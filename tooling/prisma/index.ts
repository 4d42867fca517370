export { diffDatabaseToSchema } from "./schema-diff.ts";
export { withMigratedScratchDatabase } from "./scratch-database.ts";
