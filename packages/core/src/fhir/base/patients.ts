import type { Patient } from "fhir/r4.js";
import { findActiveUser, listUsers, requireReadableUser, type ReaderPrincipal } from "../../identity/index.ts";
import { AppError, type DbClient } from "../../platform/index.ts";
import { type FhirBaseSettings, requireReadScope, searchset, searchUrl, type SearchsetBundle } from "./fhir-base.ts";
import { cursorOf, type FhirQuery, givenParameters, type KnownParameter, orValues, pageSize, unknownParameters, valuesOf } from "./search-parameters.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** At most this many ids in `_id` (one read each). */
const MAX_IDS = 100;

/** A user as a Patient shows it: its id and its tenant's reference for it. */
interface PatientUser {
  id: string;
  externalRef: string | null;
}

/**
 * The identifier system of a tenant's external_ref: `{fhir_code_system_base}/external-ref/{tenant id}`.
 * It names the tenant, so two tenants' equal refs are different identifiers.
 */
export const externalRefSystem = (codeSystemBase: string, tenantId: string): string => `${codeSystemBase.replace(/\/+$/, "")}/external-ref/${tenantId}`;

/** A user as a Patient: id = the user's id, identifier = its external_ref (when it has one). Nothing else: svc holds no demographics. */
export function patientOf(user: PatientUser, tenantId: string, settings: FhirBaseSettings): Patient {
  return {
    resourceType: "Patient",
    id: user.id,
    ...(user.externalRef !== null && { identifier: [{ system: externalRefSystem(settings.codeSystemBase, tenantId), value: user.externalRef }] }),
    active: true,
  };
}

const notFound = () => new AppError("not_found", "No such Patient.");

/** The user of `id` when the caller may read it; null otherwise (another tenant's, another user's, deleting, not a user id). */
export async function readableUser(db: DbClient, principal: ReaderPrincipal, id: string): Promise<PatientUser | null> {
  if (!UUID.test(id)) return null;
  try {
    return await requireReadableUser(db, principal, id);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") return null;
    throw error;
  }
}

/** The user of the Patient `id` names; a 404 when the caller may not read it (as readableUser). */
export async function requirePatientUser(db: DbClient, principal: ReaderPrincipal, id: string): Promise<PatientUser> {
  const user = await readableUser(db, principal, id);
  if (!user) throw notFound();
  return user;
}

/** GET /v1/fhir/Patient/{id}: a user of the tenant (a user token: its own user only). */
export async function readFhirPatient(db: DbClient, principal: ReaderPrincipal, id: string, settings: FhirBaseSettings): Promise<Patient> {
  requireReadScope(principal);
  return patientOf(await requirePatientUser(db, principal, id), principal.tenantId, settings);
}

/** The parameters that narrow a Patient search, in the order its links spell them. */
const PATIENT_FILTERS: readonly KnownParameter[] = [{ name: "_id" }, { name: "identifier" }];
const PATIENT_PARAMETERS: readonly KnownParameter[] = [...PATIENT_FILTERS, { name: "_count" }, { name: "cursor" }];

/** One token of `identifier`: `system|value`, `|value` (no system), `value` (any system) or `system|` (any value). */
interface IdentifierToken {
  system: string | undefined;
  value: string | undefined;
}

function identifierToken(token: string): IdentifierToken {
  const bar = token.indexOf("|");
  if (bar === -1) return { system: undefined, value: token };
  const value = token.slice(bar + 1);
  return { system: token.slice(0, bar), value: value === "" ? undefined : value };
}

/** Whether a Patient of the tenant carries an identifier the token names. */
function carries(user: PatientUser, token: IdentifierToken, system: string): boolean {
  if (user.externalRef === null) return false;
  if (token.system !== undefined && token.system !== system) return false;
  return token.value === undefined || token.value === user.externalRef;
}

/**
 * GET /v1/fhir/Patient: the tenant's users (a user token: its own), narrowed by `_id` and
 * `identifier` (each repetition narrows, the comma-separated values of one widen), oldest first,
 * paged by `_count` through `next` links. `identifier` with a value is a lookup of the
 * external_ref; without `_id` or such a lookup the tenant's users are listed, a page at a time.
 */
export async function searchFhirPatients(
  db: DbClient,
  principal: ReaderPrincipal,
  query: FhirQuery,
  options: { strict: boolean },
  settings: FhirBaseSettings,
): Promise<SearchsetBundle<Patient>> {
  requireReadScope(principal);
  unknownParameters(query, PATIENT_PARAMETERS, options.strict);
  const ids = valuesOf(query, "_id").map(orValues);
  const identifiers = valuesOf(query, "identifier").map((value) => orValues(value).map(identifierToken));
  const count = pageSize(query);
  const cursor = cursorOf(query);
  const system = externalRefSystem(settings.codeSystemBase, principal.tenantId);
  const matches = (user: PatientUser) =>
    ids.every((anyOf) => anyOf.includes(user.id)) && identifiers.every((anyOf) => anyOf.some((token) => carries(user, token, system)));

  const applied = [...givenParameters(query, PATIENT_FILTERS), ["_count", String(count)] as const];
  const link = (at: string | undefined) => searchUrl(settings, "Patient", at ? [...applied, ["cursor", at]] : applied);

  const { users, next } = await candidates(db, principal, { ids, identifiers, system, count, cursor });
  const patients = users.filter(matches).map((user) => patientOf(user, principal.tenantId, settings));
  return searchset(settings, patients, { self: link(cursor), next: next && link(next) });
}

/** The users a search looks at: named ones (`_id`, an external_ref), or a page of the tenant's users. */
async function candidates(
  db: DbClient,
  principal: ReaderPrincipal,
  search: { ids: string[][]; identifiers: IdentifierToken[][]; system: string; count: number; cursor: string | undefined },
): Promise<{ users: PatientUser[]; next?: string | undefined }> {
  if (principal.kind === "user") {
    const own = search.cursor === undefined ? await readableUser(db, principal, principal.userId) : null;
    return { users: own ? [own] : [] };
  }
  const [firstIds] = search.ids;
  if (firstIds) {
    if (firstIds.length > MAX_IDS) throw new AppError("bad_request", `_id takes at most ${MAX_IDS} ids`);
    const named = await Promise.all([...new Set(firstIds)].filter((id) => UUID.test(id)).map((id) => findActiveUser(db, principal.tenantId, id)));
    return { users: named.filter((user) => user !== null) };
  }
  const lookup = search.identifiers.find((anyOf) => anyOf.every((token) => token.value !== undefined));
  if (lookup) {
    const refs = [...new Set(lookup.filter((token) => token.system === undefined || token.system === search.system).map((token) => token.value!))];
    if (refs.length > MAX_IDS) throw new AppError("bad_request", `identifier takes at most ${MAX_IDS} values`);
    const found = await Promise.all(refs.map((externalRef) => listUsers(db, principal.tenantId, { limit: 1 }, { externalRef })));
    return { users: found.flatMap((page) => page.data.map((user) => ({ id: user.id, externalRef: user.external_ref }))) };
  }
  const page = await listUsers(db, principal.tenantId, { limit: search.count, cursor: search.cursor });
  return { users: page.data.map((user) => ({ id: user.id, externalRef: user.external_ref })), next: page.next_cursor ?? undefined };
}
