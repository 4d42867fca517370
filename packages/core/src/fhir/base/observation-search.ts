import type { Observation } from "fhir/r4.js";
import { type ReaderPrincipal } from "../../identity/index.ts";
import { AppError, type DbClient } from "../../platform/index.ts";
import type { RecordView } from "../../records/index.ts";
import { fhirSystems } from "../fhir-systems.ts";
import { observationFilterOfTokens } from "../observation-filter.ts";
import { decodeObservationCursor, encodeObservationCursor } from "../observation-position.ts";
import { readObservationEntries, renderObservations } from "../search-observations.ts";
import { readNewestFirst } from "./observation-newest-first.ts";
import { dateCondition, inWindow } from "./date-parameter.ts";
import { baseObservation, type FhirBaseSettings, requireReadScope, searchset, searchUrl, type SearchsetBundle } from "./fhir-base.ts";
import { readableUser, requirePatientUser } from "./patients.ts";
import {
  cursorOf,
  type FhirQuery,
  givenParameters,
  type KnownParameter,
  orValues,
  pageSize,
  singleValueOf,
  unknownParameters,
  valuesOf,
  valuesWithModifiers,
} from "./search-parameters.ts";

const PATIENT: KnownParameter = { name: "patient", modifiers: ["Patient"] };
const SUBJECT: KnownParameter = { name: "subject", modifiers: ["Patient"] };

/** The parameters of the Observation search, in the order its links spell them. */
const OBSERVATION_PARAMETERS: readonly KnownParameter[] = [
  PATIENT,
  SUBJECT,
  { name: "code" },
  { name: "category" },
  { name: "date" },
  { name: "_lastUpdated" },
  { name: "view" },
  { name: "_sort" },
  { name: "_count" },
  { name: "cursor" },
];

/**
 * The patient ids `patient` and `subject` name: `Patient/{id}`, a URL ending in it, or a bare id.
 * A reference to another type (`subject=Group/1`) names no patient: it matches nothing.
 */
function namedPatients(query: FhirQuery): Set<string | null> {
  const named = new Set<string | null>();
  for (const value of [...valuesWithModifiers(query, PATIENT), ...valuesWithModifiers(query, SUBJECT)]) {
    for (const reference of orValues(value)) {
      const typed = /(?:^|\/)([A-Za-z]+)\/([^/]+)$/.exec(reference);
      named.add(typed ? (typed[1] === "Patient" ? typed[2]! : null) : reference);
    }
  }
  return named;
}

/**
 * The user whose Observations are searched: the Patient of the compartment searched in, else the
 * one patient the query names, or with a user token its own user. A tenant key must name one (a
 * search across every patient of a tenant is not offered: its cost grows with the tenant). Null
 * when the patient is none the caller may read, or not the compartment's: the search then matches
 * nothing, as FHIR answers a reference to no resource. A compartment of a Patient the caller may
 * not read is a 404, as reading that Patient is.
 */
async function searchedUser(db: DbClient, principal: ReaderPrincipal, query: FhirQuery, compartment: string | undefined): Promise<string | null> {
  const named = namedPatients(query);
  if (named.size > 1) throw new AppError("bad_request", "An Observation search takes one patient: patient and subject must name the same one");
  const [only] = named;
  if (compartment !== undefined) {
    const { id } = await requirePatientUser(db, principal, compartment);
    return only === undefined || only === id ? id : null;
  }
  if (only === undefined) {
    if (principal.kind === "user") return principal.userId;
    throw new AppError("bad_request", "An Observation search with a tenant API key needs patient (or subject): Patient/{user id}");
  }
  return only === null ? null : ((await readableUser(db, principal, only))?.id ?? null);
}

function viewOf(query: FhirQuery): RecordView {
  const view = singleValueOf(query, "view") ?? "merged";
  if (view !== "merged" && view !== "all") throw new AppError("bad_request", "view must be merged or all");
  return view;
}

/** `_sort`: `date` (oldest first, the default) or `-date` (newest first); time, then kind and id, all in that direction. */
function newestFirst(query: FhirQuery): boolean {
  const sort = singleValueOf(query, "_sort");
  if (sort !== undefined && sort !== "date" && sort !== "-date") throw new AppError("bad_request", "_sort takes date (oldest first) or -date (newest first)");
  return sort === "-date";
}

/** The parameters a search applied, as its links repeat them: the known ones as given, `view` and `_count` spelled out. */
function appliedParameters(query: FhirQuery, view: RecordView, limit: number): Array<readonly [string, string]> {
  const given = OBSERVATION_PARAMETERS.filter((parameter) => !["cursor", "_count", "view"].includes(parameter.name));
  return [...givenParameters(query, given), ["view", view], ["_count", String(limit)]];
}

/**
 * GET /v1/fhir/Observation, and GET /v1/fhir/Patient/{id}/Observation (`options.compartment`:
 * that Patient's id, the search's patient; its links keep that form): one page of a patient's
 * Observations, the spec's search walk with FHIR's parameters: `patient`/`subject`, `code` and `category` tokens, `date` and
 * `_lastUpdated` with prefixes, `_count`, `_sort` (date, -date), svc's `view`, and the `cursor` of next
 * links. `date` bounds the walk as `start`/`end` do; `_lastUpdated` is applied to the page read
 * (a page may be short, even empty, and still have a next link). Unknown parameters are left
 * out of the links (lenient) or refused (strict).
 */
export async function searchFhirObservations(
  db: DbClient,
  principal: ReaderPrincipal,
  query: FhirQuery,
  options: { strict: boolean; compartment?: string | undefined },
  settings: FhirBaseSettings,
): Promise<SearchsetBundle<Observation>> {
  requireReadScope(principal);
  unknownParameters(query, OBSERVATION_PARAMETERS, options.strict);
  const systems = fhirSystems(settings.codeSystemBase);
  const filter = observationFilterOfTokens({ code: valuesOf(query, "code").map(orValues), category: valuesOf(query, "category").map(orValues) }, systems);
  const date = dateCondition("date", valuesOf(query, "date"));
  const lastUpdated = dateCondition("_lastUpdated", valuesOf(query, "_lastUpdated"));
  const view = viewOf(query);
  const descending = newestFirst(query);
  const limit = pageSize(query);
  const cursor = cursorOf(query);
  const after = decodeObservationCursor(cursor);
  const userId = await searchedUser(db, principal, query, options.compartment);

  const applied = appliedParameters(query, view, limit);
  const path = options.compartment === undefined ? "Observation" : `Patient/${options.compartment}/Observation`;
  const link = (at: string | undefined) => searchUrl(settings, path, at ? [...applied, ["cursor", at]] : applied);

  if (userId === null || "empty" in date || "empty" in lastUpdated) return searchset(settings, [], { self: link(cursor) });
  const pageQuery = { userId, systems, filter, window: date.window, view, after, limit };
  const { entries, next } = await (descending ? readNewestFirst(db, pageQuery) : readObservationEntries(db, pageQuery));
  const observations = (await renderObservations(db, userId, entries)).map(baseObservation);
  const updatedIn = (o: Observation) => o.meta?.lastUpdated !== undefined && inWindow(lastUpdated.window, new Date(o.meta.lastUpdated));
  const listed = valuesOf(query, "_lastUpdated").length > 0 ? observations.filter(updatedIn) : observations;
  return searchset(settings, listed, { self: link(cursor), next: next && link(encodeObservationCursor(next)) });
}
