import type { Bundle, Observation } from "fhir/r4.js";
import {
  BLOOD_PRESSURE_TYPES,
  dayAggregateObservation,
  fhirSystems,
  type FhirSystems,
  isBloodPressureType,
  type ObservationFilter,
  type ObservationSearchSettings,
  RECORD_KINDS,
  type RecordKind,
  searchObservations,
  TZ_CODE_EXTENSION,
} from "../fhir/index.ts";
import { categoryOfDailyFigure, categoryOfQuantityType, categoryOfRecordKind, DAILY_SUMMARY_FIGURE_CATEGORIES, listSampleTypeSpans } from "../records/index.ts";
import { AppError, type DbClient } from "../platform/index.ts";
import { listSourceConsentRows } from "./source-consent-repository.ts";
import { dayAggregatesOf, instantInZone, isAggregatedType } from "./share-aggregates.ts";
import { shareZoneOf } from "./share-zone.ts";

/**
 * How much of the records a share holds: `daily` (the default) holds one aggregate per local
 * day of each frequent quantity type (counts summed, readings averaged with their minimum and
 * maximum) and every other record as it is, ECG recordings without their voltages; `full`
 * holds every sample and every ECG voltage.
 */
export const SHARE_DETAILS = ["daily", "full"] as const;
export type ShareDetail = (typeof SHARE_DETAILS)[number];

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

/** The categories a daily summary's figures belong to (activity, heart, sleep). */
const DAILY_FIGURE_CATEGORIES = new Set<string>(Object.values(DAILY_SUMMARY_FIGURE_CATEGORIES));

/**
 * The Observation search narrowed to the categories: samples of their types, the panels and
 * records they hold (daily summaries when one of their figures' categories is asked for; the
 * figures are narrowed afterwards, shareableObservation).
 */
export function categoriesFilter(categories: readonly string[]): ObservationFilter {
  const wanted = new Set(categories);
  const panelCategory = categoryOfQuantityType(BLOOD_PRESSURE_TYPES.systolic);
  const holds = (kind: RecordKind) =>
    kind === "daily_summary" ? categories.some((category) => DAILY_FIGURE_CATEGORIES.has(category)) : wanted.has(categoryOfRecordKind(kind));
  return {
    sampleType: (type) => {
      const category = categoryOfQuantityType(type);
      return category !== null && wanted.has(category);
    },
    panel: panelCategory !== null && wanted.has(panelCategory) ? () => true : null,
    records: new Set(RECORD_KINDS.filter(holds)),
  };
}

/** Whether a share may hold data of this category from this provider. */
type SharedCategory = (provider: string, category: string | null) => boolean;

const codeIn = (codings: ReadonlyArray<{ system?: string; code?: string }> | undefined, system: string) =>
  codings?.find((coding) => coding.system === system)?.code;

/** The category of an Observation the search built: its record kind's, or its quantity type's for a sample. */
function categoryOfObservation(observation: Observation, systems: FhirSystems): string | null {
  const kind = codeIn(observation.code.coding, systems.recordType);
  if (kind === "blood_pressure") return categoryOfQuantityType(BLOOD_PRESSURE_TYPES.systolic);
  if (kind !== undefined) return (RECORD_KINDS as readonly string[]).includes(kind) ? categoryOfRecordKind(kind as RecordKind) : null;
  const type = codeIn(observation.code.coding, systems.quantityType);
  return type === undefined ? null : categoryOfQuantityType(type);
}

/**
 * What a share holds of an Observation: all of it when its category is shared and still
 * consented to for its provider, else nothing; a daily summary keeps only the figures
 * (components) of such categories, and nothing when none is left.
 */
function shareableObservation(observation: Observation, systems: FhirSystems, shared: SharedCategory): Observation | null {
  const provider = codeIn(observation.meta?.tag, systems.provider) ?? "";
  if (codeIn(observation.code.coding, systems.recordType) === "daily_summary") {
    const { component, ...rest } = observation;
    const kept = (component ?? []).filter((part) => {
      const figure = codeIn(part.code.coding, systems.figure);
      return figure !== undefined && shared(provider, categoryOfDailyFigure(figure));
    });
    return kept.length > 0 ? { ...rest, component: kept } : null;
  }
  return shared(provider, categoryOfObservation(observation, systems)) ? observation : null;
}

/** An ECG recording's Observation without its voltages (the recording's summary stays). */
function withoutVoltages(observation: Observation, systems: FhirSystems): Observation {
  if (codeIn(observation.code.coding, systems.recordType) !== "ecg_recording") return observation;
  const { component, ...rest } = observation;
  const kept = (component ?? []).filter((part) => codeIn(part.code.coding, systems.figure) !== "voltages");
  return kept.length > 0 ? { ...rest, component: kept } : rest;
}

export interface ShareBundle {
  /** The JSON of a FHIR R4 `collection` Bundle of the Observations. */
  json: string;
  observations: number;
  /** Providers whose records the Bundle holds, sorted. */
  providers: string[];
  /** The IANA zone the share's days are counted in. */
  zone: string;
}

const tooLarge = (what: string, detail: ShareDetail) =>
  new AppError(
    "payload_too_large",
    `The share would hold more than ${what}: choose a shorter window or fewer categories${detail === "full" ? ", or daily detail" : ""}.`,
  );

/**
 * The user's records of the categories in the window as a FHIR R4 `collection` Bundle of
 * Observations, read page by page through the Observation search (merged view: the record of
 * the best ranked source when several sources hold the same one). With `daily` detail the
 * frequent quantity types are left out of the search and added as one aggregate per local day
 * of the share's zone (shareZoneOf), and ECG voltages are left out. Records of a category the
 * user revoked for their provider are left out, also while the revocation's job has not yet
 * deleted them; daily summaries keep only the figures of categories shared and consented to.
 * The Bundle's timestamp names the zone (tz-code) and its meta tag the detail. 413 past the
 * limits.
 */
export async function buildShareBundle(
  db: DbClient,
  userId: string,
  share: { categories: readonly string[]; start: Date; end: Date; detail: ShareDetail },
  settings: Pick<ObservationSearchSettings, "codeSystemBase">,
  limits: ShareLimits,
): Promise<ShareBundle> {
  const shareFilter = categoriesFilter(share.categories);
  const daily = share.detail === "daily";
  const filter: ObservationFilter = daily ? { ...shareFilter, sampleType: (type) => shareFilter.sampleType(type) && !isAggregatedType(type) } : shareFilter;
  const systems = fhirSystems(settings.codeSystemBase);
  const providerSystem = systems.provider;
  const wanted = new Set<string>(share.categories);
  const revoked = new Set((await listSourceConsentRows(db, userId)).filter((row) => !row.granted).map((row) => `${row.provider}\n${row.category}`));
  const shared: SharedCategory = (provider, category) => category !== null && wanted.has(category) && !revoked.has(`${provider}\n${category}`);
  const sampleTypes = (await listSampleTypeSpans(db, userId))
    .filter((span) => shareFilter.sampleType(span.type) && !isBloodPressureType(span.type))
    .filter((span) => span.last_start >= share.start && span.first_start < share.end)
    .map((span) => span.type);
  const zone = await shareZoneOf(db, { userId, start: share.start, end: share.end, sampleTypes });

  const observations: Observation[] = [];
  const input = { start: share.start.toISOString(), end: share.end.toISOString(), view: "merged" as const, limit: PAGE };
  let cursor: string | undefined;
  do {
    const page = await searchObservations(db, userId, { ...input, cursor }, { codeSystemBase: settings.codeSystemBase, searchUrl: "urn:svc:share" }, filter);
    for (const entry of page.entry ?? []) {
      const kept = entry.resource && shareableObservation(entry.resource, systems, shared);
      if (kept) observations.push(daily ? withoutVoltages(kept, systems) : kept);
    }
    if (observations.length > limits.maxObservations) throw tooLarge(`${limits.maxObservations} observations`, share.detail);
    const next = page.link?.find((link) => link.relation === "next")?.url;
    cursor = next === undefined ? undefined : (new URL(next).searchParams.get("cursor") ?? undefined);
  } while (cursor !== undefined);

  if (daily) {
    const ctx = { userId, systems };
    for (const type of sampleTypes.filter(isAggregatedType)) {
      const category = categoryOfQuantityType(type);
      const days = await dayAggregatesOf(db, userId, { type, start: share.start, end: share.end, zone }, (provider) => shared(provider, category));
      observations.push(...days.map((day) => dayAggregateObservation(ctx, day)));
      if (observations.length > limits.maxObservations) throw tooLarge(`${limits.maxObservations} observations`, share.detail);
    }
  }

  const providers = new Set<string>();
  for (const observation of observations) {
    for (const tag of observation.meta?.tag ?? []) if (tag.system === providerSystem && tag.code) providers.add(tag.code);
  }
  const bundle: Bundle<Observation> = {
    resourceType: "Bundle",
    meta: { tag: [{ system: systems.shareDetail, code: share.detail }] },
    type: "collection",
    timestamp: instantInZone(Date.now(), zone),
    _timestamp: { extension: [{ url: TZ_CODE_EXTENSION, valueCode: zone }] },
    ...(observations.length > 0 && { entry: observations.map((resource) => ({ resource })) }),
  };
  const json = JSON.stringify(bundle);
  if (Buffer.byteLength(json) > limits.maxBundleBytes) throw tooLarge(`${Math.floor(limits.maxBundleBytes / 1024 / 1024)} MiB`, share.detail);
  return { json, observations: observations.length, providers: [...providers].sort(), zone };
}
