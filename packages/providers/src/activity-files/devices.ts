// Who made an activity file: a vendor slug for `source`, a device name for `device`, and
// whether the device is worn on the body (a watch or band: `on_body`).

import { snakeCase } from "./activity-types.ts";

export interface FileDevice {
  /** Lower-case vendor slug (`garmin`, `stryd`), null when unknown. */
  source: string | null;
  device: string | null;
  onBody: boolean;
}

export const UNKNOWN_DEVICE: FileDevice = { source: null, device: null, onBody: false };

/** FIT manufacturer names that say nothing about the vendor. */
const NO_VENDOR = new Set(["development", "invalid"]);

/** A FIT `manufacturer` value (the SDK's camelCase name, or a number it does not know) as a slug. */
export function vendorFromFitManufacturer(manufacturer: unknown): string | null {
  if (typeof manufacturer !== "string") return null;
  const slug = snakeCase(manufacturer);
  return slug && !NO_VENDOR.has(slug) ? slug : null;
}

const VENDOR_NAMES: ReadonlyArray<[RegExp, string]> = [
  // Garmin's own name, its apps, and its product families (TCX creators name the device only).
  [/\bgarmin\b|^(forerunner|f[eē]nix|v[ií]vo|venu|instinct|epix|enduro|edge|oregon|etrex|approach|descent|marq)/i, "garmin"],
  [/\bstrava/i, "strava"],
  [/\bwahoo\b/i, "wahoo"],
  [/\bpolar\b/i, "polar"],
  [/\bsuunto\b/i, "suunto"],
  [/\bcoros\b/i, "coros"],
  [/\bzwift\b/i, "zwift"],
];

/** The vendor a creator or device name belongs to, when it says so; null otherwise. */
export function vendorFromName(name: string | undefined): string | null {
  if (!name) return null;
  for (const [pattern, vendor] of VENDOR_NAMES) if (pattern.test(name)) return vendor;
  return null;
}

const WRIST_DEVICES = /^(garmin )?(forerunner|f[eē]nix|v[ií]vo|venu|instinct|epix|enduro|approach s|descent|marq|quatix|tactix|lily|bounce|swim)|watch/i;

/** Whether a device name is a watch or band (worn on the wrist), as far as its name tells. */
export function isWristWorn(device: string | null): boolean {
  return device !== null && WRIST_DEVICES.test(device);
}

const GARMIN_FAMILIES: ReadonlyMap<string, string> = new Map([
  ["fr", "Forerunner"],
  ["hrm", "HRM"],
  ["vivo", "Vivo"],
]);

/**
 * A Garmin product as the FIT SDK names it (`fr110`, `fenix5Plus`, `edge820`, `vivoFit`)
 * written as people do (`Forerunner 110`, `Fenix 5 Plus`, `Edge 820`, `Vivofit`).
 */
export function garminProductName(name: string): string {
  const tokens = name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+/g) ?? [];
  const words: string[] = [];
  for (const [i, token] of tokens.entries()) {
    const previous = words.at(-1);
    if (i === 0) {
      words.push(GARMIN_FAMILIES.get(token) ?? capitalize(token));
    } else if (previous === "Vivo") {
      words[words.length - 1] = `Vivo${token.toLowerCase()}`;
    } else if (previous !== undefined && /\d$/.test(previous) && /^[a-z]{1,3}$/.test(token)) {
      words[words.length - 1] = `${previous}${token.toUpperCase()}`; // 920 + xt -> 920XT
    } else {
      words.push(capitalize(token));
    }
  }
  return words.join(" ") || name;
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** A free-form name from a file, trimmed and cut to 100 characters; undefined when empty. */
export function cleanName(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const name = value.replace(/\s+/g, " ").trim().slice(0, 100);
  return name === "" ? undefined : name;
}
