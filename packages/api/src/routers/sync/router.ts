import { router } from "../../trpc.ts";
import { getFreshness } from "./get-freshness.ts";
import { getSyncRun } from "./get-sync-run.ts";
import { listSyncRuns } from "./list-sync-runs.ts";
import { syncConnection } from "./sync-connection.ts";

export const syncRouter = router({
  syncConnection,
  listSyncRuns,
  getSyncRun,
  getFreshness,
});
