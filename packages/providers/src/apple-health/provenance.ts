// Where a HealthKit object came from (source, device) and when (times), as both the NDJSON
// lines and export.xml give them, turned into the provenance fields of svc's records.
import { boundedMemo } from "@svc/core";

/** HKDevice: every property is optional in HealthKit. */
export interface HkDevice {
  name: string | null;
  manufacturer: string | null;
  model: string | null;
  hardware: string | null;
  software: string | null;
}

/** What every HealthKit object of an upload carries besides its own fields. */
export interface HkProvenance {
  uuid: string | null;
  sourceName: string | null;
  bundleId: string | null;
  device: HkDevice | null;
  metadata: Record<string, unknown>;
  /** IANA zone or ±hh:mm offset: HKTimeZone metadata, else what the upload gives. */
  timezone: string | null;
  wasUserEntered: boolean;
  locator: string;
}

const DEVICE_KEYS = ["name", "manufacturer", "model", "hardware", "software", "firmware", "localIdentifier", "UDIDeviceIdentifier"] as const;
const DEVICE_KEY = new RegExp(`(?:^|, )(${DEVICE_KEYS.join("|")}):`, "g");

/**
 * Reads export.xml's device attribute, the description of an HKDevice:
 * `<<HKDevice: 0x3012772a0>, name:Apple Watch, manufacturer:Apple Inc., model:Watch, hardware:Watch6,7, software:10.2>`.
 * Values may hold commas (`Watch6,7`), so a value runs to the next `, key:` of a known key.
 */
export function parseHkDeviceDescription(description: string | undefined): HkDevice | null {
  return description ? deviceDescriptionOf(description) : null;
}

// An export names a few devices, each on up to millions of records.
const deviceDescriptionOf = boundedMemo(1000, (description) => readDeviceDescription(description));

function readDeviceDescription(description: string): HkDevice | null {
  let text = description.trim();
  const head = /^<<HKDevice: [^>]*>/.exec(text);
  if (head) text = text.slice(head[0].length);
  if (text.endsWith(">")) text = text.slice(0, -1);
  const found: Array<{ key: string; at: number; valueAt: number }> = [];
  for (const match of text.matchAll(DEVICE_KEY)) {
    const key = match[1];
    if (key !== undefined) found.push({ key, at: match.index, valueAt: match.index + match[0].length });
  }
  const values: Record<string, string> = {};
  found.forEach((entry, i) => {
    const value = text.slice(entry.valueAt, found[i + 1]?.at ?? text.length).trim();
    if (value !== "" && !Object.hasOwn(values, entry.key)) values[entry.key] = value;
  });
  const device = {
    name: values.name ?? null,
    manufacturer: values.manufacturer ?? null,
    model: values.model ?? null,
    hardware: values.hardware ?? null,
    software: values.software ?? null,
  };
  return device.name || device.manufacturer || device.model || device.hardware ? device : null;
}

// Vendor slugs of the merged view's built-in orders (packages/core/src/records/merge/builtin-orders.ts).
const KNOWN_VENDORS = new Set([
  "apple", "garmin", "polar", "coros", "suunto", "fitbit", "google", "samsung", "whoop", "oura", "withings",
  "xiaomi", "huawei", "wahoo", "strava",
]);
const COMPANY_SUFFIXES = new Set(["inc", "ltd", "llc", "limited", "oy", "gmbh", "co", "corp", "corporation", "company", "sa", "ag", "bv", "ab", "as", "plc", "international", "electronics", "health", "healthcare", "medical", "labs", "technologies", "innovations", "group", "holdings", "systems"]);

/**
 * The vendor slug of a device manufacturer: `apple` for Apple Inc.; a known vendor when the
 * name starts with one (`Polar Electro Oy` -> `polar`, `Garmin International` -> `garmin`);
 * else the lower-case snake_case name without company suffixes; null without a manufacturer.
 */
export function vendorSlug(manufacturer: string | null | undefined): string | null {
  return manufacturer ? vendorSlugOf(manufacturer) : null;
}

// One upload names a few manufacturers, each on up to millions of samples.
const vendorSlugOf = boundedMemo(1000, (manufacturer) => slugOf(manufacturer));

function slugOf(manufacturer: string): string | null {
  const words = manufacturer
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
  const first = words[0];
  if (first === undefined) return null;
  if (KNOWN_VENDORS.has(first)) return first;
  while (words.length > 1 && COMPANY_SUFFIXES.has(words.at(-1) ?? "")) words.pop();
  const slug = words.join("_").slice(0, 64).replace(/_+$/, "");
  return /^[a-z]/.test(slug) ? slug : null;
}

const WORN = /watch|ring|strap|band|chest|whoop|oura|\bh(?:7|9|10)\b|oh1|verity/i;
const PHONE = /^(?:iphone|ipod|ipad)/i;

/** Worn on the body: a watch (model `Watch` or hardware `Watch…`), ring or strap; a phone is not. */
export function isOnBody(device: HkDevice | null): boolean {
  if (!device) return false;
  if (device.model === "Watch" || device.hardware?.startsWith("Watch")) return true;
  if ([device.model, device.hardware, device.name].some((v) => v && PHONE.test(v))) return false;
  return [device.model, device.name].some((v) => v !== null && WORN.test(v));
}

/** Provenance shared by every record kind (RecordProvenanceInput). */
export function baseProvenance(p: HkProvenance) {
  return {
    source: vendorSlug(p.device?.manufacturer),
    device: p.device?.name ?? null,
    on_body: isOnBody(p.device),
    source_name: p.sourceName,
    external_id: p.uuid,
    timezone: p.timezone,
    metadata: p.metadata,
    locator: p.locator,
  };
}

/** The HKTimeZone metadata entry (HKMetadataKeyTimeZone's key), when a string. */
export function metadataTimeZone(metadata: Record<string, unknown>): string | null {
  const zone = metadata.HKTimeZone ?? metadata.HKMetadataKeyTimeZone;
  return typeof zone === "string" && zone.trim() !== "" ? zone.trim() : null;
}

// ---------------------------------------------------------------------------------------
// Times.

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
const EXPORT_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeapYear = (y: number) => y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0);

function toDate(
  parts: { y: string; mo: string; d: string; h: string; mi: string; s: string; fraction?: string | undefined },
  offsetMinutes: number,
): Date | null {
  const y = Number(parts.y);
  const mo = Number(parts.mo);
  const d = Number(parts.d);
  const h = Number(parts.h);
  const mi = Number(parts.mi);
  const s = Number(parts.s);
  // Date.UTC reads years 0-99 as 1900-1999.
  if (y < 100 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  if (d > (mo === 2 && isLeapYear(y) ? 29 : DAYS_IN_MONTH[mo - 1]!)) return null;
  const ms = parts.fraction ? Math.round(Number(`0.${parts.fraction}`) * 1000) : 0;
  const date = new Date(Date.UTC(y, mo - 1, d, h, mi, s) + ms - offsetMinutes * 60_000);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** An RFC 3339 time (`2024-01-01T01:01:36.5+02:00`), or null. Leap seconds (:60) are refused. */
export function parseRfc3339(value: unknown): Date | null {
  if (typeof value !== "string") return null;
  const m = RFC3339.exec(value);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, fraction, z, sign, oh, om] = m;
  if (y === undefined || mo === undefined || d === undefined || h === undefined || mi === undefined || s === undefined) return null;
  let offset = 0;
  if (!z) {
    if (Number(oh) > 23 || Number(om) > 59) return null;
    offset = (sign === "-" ? -1 : 1) * (Number(oh) * 60 + Number(om));
  }
  return toDate({ y, mo, d, h, mi, s, fraction }, offset);
}

/** An export.xml time (`2024-01-01 01:01:36 +0200`) and its offset as ±hh:mm, or null. */
export function parseExportTime(value: string | undefined): { date: Date; offset: string; localDate: string } | null {
  if (value === undefined) return null;
  const m = EXPORT_TIME.exec(value.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, sign, oh, om] = m;
  if (y === undefined || mo === undefined || d === undefined || h === undefined || mi === undefined || s === undefined) return null;
  if (Number(oh) > 23 || Number(om) > 59) return null;
  const date = toDate({ y, mo, d, h, mi, s }, (sign === "-" ? -1 : 1) * (Number(oh) * 60 + Number(om)));
  if (!date) return null;
  return { date, offset: `${sign}${oh}:${om}`, localDate: `${y}-${mo}-${d}` };
}
