import type { CoreDeps } from "../../deps.ts";
import { type ReaderPrincipal, requireUserInScope } from "../../identity/index.ts";
import { AppError } from "../../platform/index.ts";
import { type FhirBaseSettings, requireReadScope } from "../base/fhir-base.ts";
import type { FhirQuery } from "../base/search-parameters.ts";
import { exportParameters } from "./export-parameters.ts";
import { countExportsInFlight, insertExport, lockTenantExports } from "./export-requests-repository.ts";
import { exportRequestUrl, exportStatusUrl } from "./export-urls.ts";

/** Exports of one tenant queued or running at once; one more is a 429. */
export const MAX_EXPORTS_IN_FLIGHT = 3;
/** Seconds a client asked to wait by that 429. */
const BUSY_RETRY_AFTER_SECONDS = 60;

/** A kick-off accepted: the export's id and its status URL (Content-Location). */
export interface ExportKickedOff {
  exportId: string;
  statusUrl: string;
}

/**
 * `GET /v1/fhir/Patient/$export` (every active user of the tenant: a tenant key only) and
 * `GET /v1/fhir/Patient/{id}/$export` (one user: a tenant key, or the user's own token with
 * scope read). Checks the parameters, records the export queued with its transaction time and
 * sends the `fhir-export` job in the same transaction. At most MAX_EXPORTS_IN_FLIGHT exports
 * of a tenant are queued or running: one more is a 429 with Retry-After.
 */
export async function kickOffFhirExport(
  deps: Pick<CoreDeps, "db" | "jobs">,
  principal: ReaderPrincipal,
  request: {
    patientId?: string | undefined;
    query: FhirQuery;
    strict: boolean;
    /** The kick-off URL as sent; without it, the URL is rebuilt from the query. */
    requestUrl?: string | undefined;
  },
  settings: Pick<FhirBaseSettings, "baseUrl">,
): Promise<ExportKickedOff> {
  requireReadScope(principal);
  const { patientId } = request;
  if (patientId === undefined && principal.kind !== "tenant") {
    throw new AppError("forbidden", "Patient/$export takes a tenant API key; a user token exports its own Patient/{id}/$export.");
  }
  const parameters = exportParameters(request.query, { strict: request.strict });
  if (patientId !== undefined) await requireReadableUserOrNotFound(deps, principal, patientId);
  const path = patientId === undefined ? "Patient/$export" : `Patient/${patientId}/$export`;
  const created = await deps.db.$transaction(async (tx) => {
    await lockTenantExports(tx, principal.tenantId);
    if ((await countExportsInFlight(tx, principal.tenantId)) >= MAX_EXPORTS_IN_FLIGHT) {
      throw new AppError("too_many_requests", `At most ${MAX_EXPORTS_IN_FLIGHT} exports of a tenant run at once; wait for one to finish or cancel one.`, {
        headers: { "Retry-After": String(BUSY_RETRY_AFTER_SECONDS) },
      });
    }
    const row = await insertExport(tx, {
      tenantId: principal.tenantId,
      userId: patientId ?? null,
      resourceTypes: parameters.resourceTypes,
      since: parameters.since,
      requestUrl: request.requestUrl ?? exportRequestUrl(settings, path, request.query),
    });
    await deps.jobs.send("fhir-export", { fhir_export_id: row.id }, tx);
    return row;
  });
  return { exportId: created.id, statusUrl: exportStatusUrl(settings, created.id) };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The Patient named must be one the caller reads; any other id (not a user id, another tenant's, being deleted) is a 404. */
async function requireReadableUserOrNotFound(deps: Pick<CoreDeps, "db">, principal: ReaderPrincipal, patientId: string): Promise<void> {
  if (!UUID.test(patientId)) throw new AppError("not_found", "No such Patient.");
  try {
    await requireUserInScope(deps.db, principal, patientId, "read");
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") throw new AppError("not_found", "No such Patient.");
    throw error;
  }
}
