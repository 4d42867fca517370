import type { ReaderPrincipal } from "../../identity/index.ts";
import { AppError, type DbClient } from "../../platform/index.ts";
import { requireReadScope } from "../base/fhir-base.ts";
import { type ExportRequestRow, findExportOfTenant } from "./export-requests-repository.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const noSuchExport = () => new AppError("not_found", "No such export: it was never kicked off here, was cancelled, or its files expired.");

/**
 * An export the caller may follow: one of its tenant's (a tenant key), or one of its own
 * user (a user token with scope read). Anything else, a cancelled export or one past its
 * expiry is a 404, as an id that names nothing.
 */
export async function requireVisibleExport(db: DbClient, principal: ReaderPrincipal, exportId: string): Promise<ExportRequestRow> {
  requireReadScope(principal);
  if (!UUID.test(exportId)) throw noSuchExport();
  const found = await findExportOfTenant(db, principal.tenantId, exportId.toLowerCase());
  if (!found || found.state === "cancelled") throw noSuchExport();
  if (principal.kind === "user" && found.userId !== principal.userId) throw noSuchExport();
  if (found.expiresAt && found.expiresAt.getTime() <= Date.now()) throw noSuchExport();
  return found;
}
