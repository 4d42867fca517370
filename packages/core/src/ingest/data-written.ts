import type { DbClient } from "../platform/index.ts";
import type { CoreDeps } from "../deps.ts";
import { emitEvent } from "../events/index.ts";
import type { UserRow } from "../identity/index.ts";
import type { BundleChanges } from "./record-bundle.ts";

/**
 * Writes the thin `data.written` event of one ingest (an upload's ETL, a self report) in the
 * caller's transaction when anything was new or changed; nothing when nothing was. It
 * names tables, counts, types and local days, never a value. Returns whether it wrote one.
 */
export async function insertDataWrittenEvent(
  tx: DbClient,
  jobs: CoreDeps["jobs"],
  user: Pick<UserRow, "id" | "tenantId" | "externalRef">,
  provider: string,
  changes: BundleChanges,
  days: { first?: string; last?: string },
): Promise<boolean> {
  if (Object.keys(changes.records).length === 0) return false;
  await emitEvent(tx, jobs, {
    tenantId: user.tenantId,
    type: "data.written",
    userId: user.id,
    data: {
      user_id: user.id,
      external_ref: user.externalRef,
      provider,
      records: changes.records,
      types: [...changes.types].sort(),
      first_day: days.first ?? null,
      last_day: days.last ?? null,
    },
  });
  return true;
}
