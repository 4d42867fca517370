import type { Bundle, BundleEntry, FhirResource, Observation } from "fhir/r4.js";
import { type ReaderPrincipal } from "../../identity/index.ts";
import { AppError } from "../../platform/index.ts";

/** What the /v1/fhir base needs of the instance. */
export interface FhirBaseSettings {
  /** The base's absolute URL, `{public_url}/v1/fhir`. */
  baseUrl: string;
  /** `{fhir_code_system_base}`. */
  codeSystemBase: string;
}

/** A searchset Bundle of one resource type. */
export type SearchsetBundle<R extends FhirResource> = Omit<Bundle<R>, "type"> & { type: "searchset" };

/** A user token reads through the base only with scope read (a tenant key always may). */
export function requireReadScope(principal: ReaderPrincipal): void {
  if (principal.kind === "user" && !principal.scopes.includes("read")) throw new AppError("forbidden", "This user token lacks scope read.");
}

/** A searchset Bundle: `self` (and `next` unless the last page), each resource a match under its own read URL. */
export function searchset<R extends FhirResource & { id?: string }>(
  settings: FhirBaseSettings,
  resources: readonly R[],
  links: { self: string; next?: string | undefined },
): SearchsetBundle<R> {
  return {
    resourceType: "Bundle",
    type: "searchset",
    link: [{ relation: "self", url: links.self }, ...(links.next ? [{ relation: "next", url: links.next }] : [])],
    ...(resources.length > 0 && {
      entry: resources.map((resource): BundleEntry<R> => ({
        fullUrl: `${settings.baseUrl}/${resource.resourceType}/${resource.id}`,
        resource,
        search: { mode: "match" },
      })),
    }),
  };
}

/** The URL of a search of the base (`Observation`, `Patient/{id}/Observation`) with its parameters in order (repeated ones repeated). */
export function searchUrl(settings: FhirBaseSettings, path: string, parameters: ReadonlyArray<readonly [string, string]>): string {
  const query = new URLSearchParams();
  for (const [name, value] of parameters) query.append(name, value);
  return `${settings.baseUrl}/${path}?${query.toString()}`;
}

/**
 * An Observation of the base: as the spec's search writes it, with `meta.lastUpdated`, the time
 * svc stored the record's current version (its `issued`), which `_lastUpdated` searches.
 */
export function baseObservation(observation: Observation): Observation {
  if (!observation.issued) return observation;
  return { ...observation, meta: { ...observation.meta, lastUpdated: observation.issued } };
}
