import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import type { TestService } from "../../helpers/test-service.ts";

/** Per table of the public schema its row count and an md5 of its rows' text; plus the raw store's files. */
type Fingerprint = Record<string, string>;

/**
 * Watches the whole state a request could change: every table of the public schema but
 * Prisma's migration bookkeeping, and the files under SVC_DATA_DIR/raw (upload bodies).
 * pg-boss's own schema is left out: it keeps its own maintenance rows. Returns a function
 * that names what changed since its previous call.
 *
 * The tables are read only when PostgreSQL handed out a transaction id since the previous
 * call: every INSERT, UPDATE or DELETE takes one, reads do not, so an unchanged counter
 * proves nothing was written (our own probe takes exactly one).
 */
export async function changeWatcher(svc: TestService): Promise<() => Promise<string[]>> {
  const tables = await svc.db.$queryRawUnsafe<Array<{ name: string }>>(
    "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY tablename",
  );
  const sql = tables
    .map(({ name }) => `SELECT '${name}' AS name, count(*)::int AS rows, md5(coalesce(string_agg(t::text, '|' ORDER BY t::text), '')) AS hash FROM "${name}" t`)
    .join(" UNION ALL ");
  const readTables = async (): Promise<Fingerprint> => {
    const rows = await svc.db.$queryRawUnsafe<Array<{ name: string; rows: number; hash: string }>>(sql);
    return Object.fromEntries(rows.map((row) => [row.name, `${row.rows} rows, md5 ${row.hash}`]));
  };
  // Asynchronous commit: the probe's own transaction id then costs no WAL flush.
  const nextTransactionId = async () =>
    BigInt((await svc.db.$queryRawUnsafe<Array<{ id: string }>>("SELECT set_config('synchronous_commit', 'off', true), pg_current_xact_id()::text AS id"))[0]!.id);
  const rawDir = path.join(svc.dataDir, "raw");
  // Files only: the store makes a user's folder before it writes, and leaves it (empty) when it refuses the body.
  const rawFiles = () =>
    existsSync(rawDir)
      ? readdirSync(rawDir, { recursive: true, withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => path.join(entry.parentPath, entry.name))
          .sort()
          .join(", ")
      : "";

  let transactionId = await nextTransactionId();
  let state = await readTables();
  let files = rawFiles();
  return async () => {
    const changes: string[] = [];
    const nowFiles = rawFiles();
    if (nowFiles !== files) changes.push("files under raw/");
    files = nowFiles;
    const now = await nextTransactionId();
    if (now !== transactionId + 1n) {
      const after = await readTables();
      changes.push(...Object.keys({ ...state, ...after }).filter((name) => state[name] !== after[name]));
      state = after;
    }
    transactionId = now;
    return changes;
  };
}
