import type { Bundle, Observation } from "fhir/r4.js";
import { BLOOD_PRESSURE_TYPES, RECORD_KINDS } from "../../fhir/observation-kinds.ts";
import type { ObservationFilter } from "../../fhir/observation-filter.ts";
import { fhirSystems } from "../../fhir/fhir-systems.ts";
import { categoryOfQuantityType, categoryOfRecordKind } from "../../catalog/data-categories.ts";
import { AppError } from "../../errors/app-error.ts";
import type { DbClient } from "../../repositories/db-client.ts";
import { searchObservations, type ObservationSearchSettings } from "../fhir-observations/search-observations.ts";

/** How large a share may be. */
export interface ShareLimits {
  /** Observations in one share's Bundle at most. */
  maxObservations: number;
  /** Bytes of the Bundle's JSON at most (the encrypted file is a third larger). */
  maxBundleBytes: number;
}

export const DEFAULT_SHARE_LIMITS: ShareLimits = { maxObservations: 25_000, maxBundleBytes: 16 * 1024 * 1024 };

/** Observations read per page of the search while a share's Bundle is built. */
const PAGE = 1_000;

/** The Observation search narrowed to the categories: samples of their types, the panels and records they hold. */
export function categoriesFilter(categories: readonly string[]): ObservationFilter {
  const wanted = new Set(categories);
  const panelCategory = categoryOfQuantityType(BLOOD_PRESSURE_TYPES.systolic);
  return {
    sampleType: (type) => {
      const category = categoryOfQuantityType(type);
      return category !== null && wanted.has(category);
    },
    panel: panelCategory !== null && wanted.has(panelCategory) ? () => true : null,
    records: new Set(RECORD_KINDS.filter((kind) => wanted.has(categoryOfRecordKind(kind)))),
  };
}

export interface ShareBundle {
  /** The JSON of a FHIR R4 `collection` Bundle of the Observations. */
  json: string;
  observations: number;
  /** Providers whose records the Bundle holds, sorted. */
  providers: string[];
}

const tooLarge = (what: string) =>
  new AppError("payload_too_large", `The share would hold more than ${what}: choose a shorter window or fewer categories.`);

/**
 * The user's records of the categories in the window as a FHIR R4 `collection` Bundle of
 * Observations, read page by page through the Observation search (merged view: the record of
 * the best ranked source when several sources hold the same one). 413 past the limits.
 */
export async function buildShareBundle(
  db: DbClient,
  userId: string,
  share: { categories: readonly string[]; start: Date; end: Date },
  settings: Pick<ObservationSearchSettings, "codeSystemBase">,
  limits: ShareLimits,
): Promise<ShareBundle> {
  const filter = categoriesFilter(share.categories);
  const providerSystem = fhirSystems(settings.codeSystemBase).provider;
  const observations: Observation[] = [];
  const input = { start: share.start.toISOString(), end: share.end.toISOString(), view: "merged" as const, limit: PAGE };
  let cursor: string | undefined;
  do {
    const page = await searchObservations(db, userId, { ...input, cursor }, { codeSystemBase: settings.codeSystemBase, searchUrl: "urn:svc:share" }, filter);
    for (const entry of page.entry ?? []) if (entry.resource) observations.push(entry.resource);
    if (observations.length > limits.maxObservations) throw tooLarge(`${limits.maxObservations} observations`);
    const next = page.link?.find((link) => link.relation === "next")?.url;
    cursor = next === undefined ? undefined : (new URL(next).searchParams.get("cursor") ?? undefined);
  } while (cursor !== undefined);

  const providers = new Set<string>();
  for (const observation of observations) {
    for (const tag of observation.meta?.tag ?? []) if (tag.system === providerSystem && tag.code) providers.add(tag.code);
  }
  const bundle: Bundle<Observation> = {
    resourceType: "Bundle",
    type: "collection",
    timestamp: new Date().toISOString(),
    ...(observations.length > 0 && { entry: observations.map((resource) => ({ resource })) }),
  };
  const json = JSON.stringify(bundle);
  if (Buffer.byteLength(json) > limits.maxBundleBytes) throw tooLarge(`${Math.floor(limits.maxBundleBytes / 1024 / 1024)} MiB`);
  return { json, observations: observations.length, providers: [...providers].sort() };
}
