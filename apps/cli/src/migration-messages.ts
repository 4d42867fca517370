import type { MigrationState } from "@svc/db";

const list = (names: string[]) => names.join(", ");
const migrations = (count: number) => (count === 1 ? "1 migration" : `${count} migrations`);

/**
 * Why the CLI will not work on a database in this state, and what to run. Only `svc migrate`
 * changes the schema: an admin command run from another checkout must not migrate an instance.
 */
export function refusalMessage(state: Exclude<MigrationState, { status: "up-to-date" }>): string {
  switch (state.status) {
    case "no-schema":
      return "the database has no svc schema yet: run `svc migrate` (this build) to create it. Nothing was changed.";
    case "behind":
      return (
        `the database schema is behind this build: ${migrations(state.pending.length)} to apply (${list(state.pending)}). ` +
        "Run `svc migrate` from this build first (or start this build's server, which migrates at start unless " +
        "SVC_MIGRATE_ON_START=false). Nothing was changed."
      );
    case "ahead":
      return (
        `the database was migrated by a newer svc build: it has ${migrations(state.unknown.length)} this build does not know ` +
        `(${list(state.unknown)}). Use the svc of that newer build (or update this checkout). Nothing was changed.`
      );
    case "changed":
      return (
        `${migrations(state.changed.length)} applied to the database differ from this build's files (${list(state.changed)}): ` +
        "a migration was edited after it was applied. Restore the file as applied, or use the build that applied it. Nothing was changed."
      );
    case "failed":
      return (
        `${migrations(state.failed.length)} started and never finished in this database (${list(state.failed)}): ` +
        'repair the schema by hand, then mark the row in "_prisma_migrations" rolled back (rolled_back_at) so `svc migrate` applies it again.'
      );
  }
}
