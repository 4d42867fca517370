// Conversion of a value in any common unit spelling to the storage unit of its quantity type.
// The arithmetic is done by @lhncbc/ucum-lhc; this file only maps spellings to UCUM codes and
// refuses conversions that UCUM would allow but that make no sense for health data.
// Values never appear in error messages: they are health data.

// The reference brings the module declaration along when other packages compile this file.
/// <reference path="./ucum-lhc.d.ts" />
import ucum from "@lhncbc/ucum-lhc";
import type { QuantityType } from "./quantity-types.ts";

export interface StorageValue {
  value: number;
  unit: string;
  original_value: number;
  original_unit: string;
}

export interface UnitError {
  error: string;
}

const utils = ucum.UcumLhcUtils.getInstance();

// Symbols that are not UCUM codes, as HealthKit and others write them. Case matters:
// "Cal" is the food calorie (kcal), "cal" the small calorie.
const SYMBOL_ALIASES: Readonly<Record<string, string>> = {
  "count": "1",
  "{count}": "1",
  "fraction": "1",
  "count/min": "/min",
  "count/s": "/s",
  "count/h": "/h",
  "count/hr": "/h",
  "beats/min": "/min",
  "breaths/min": "/min",
  "steps/min": "/min",
  "bpm": "/min",
  "rpm": "/min",
  "Cal": "[Cal]",
  "kCal": "kcal",
  "mi": "[mi_i]",
  "ft": "[ft_i]",
  "in": "[in_i]",
  "yd": "[yd_i]",
  "lb": "[lb_av]",
  "lbs": "[lb_av]",
  "oz": "[oz_av]",
  "st": "[stone_av]",
  "mcg": "ug",
  "µg": "ug",
  "degC": "Cel",
  "°C": "Cel",
  "degF": "[degF]",
  "°F": "[degF]",
  "mmHg": "mm[Hg]",
  "cmAq": "cm[H2O]",
  "hr": "h",
  "sec": "s",
  "km/hr": "km/h",
  "mi/hr": "[mi_i]/h",
  "mi/h": "[mi_i]/h",
  "mph": "[mi_i]/h",
  "kph": "km/h",
  "fl_oz_us": "[foz_us]",
  "fl_oz_imp": "[foz_br]",
  "cup_us": "[cup_us]",
  "pt_us": "[pt_us]",
  "IU": "[IU]",
  "mcS": "uS",
  "µS": "uS",
  "dBASPL": "dB[SPL]",
  "dBA": "dB[SPL]",
  "dB(A)": "dB[SPL]",
  "dB(SPL)": "dB[SPL]",
  "kg/m^2": "kg/m2",
  "kg/m²": "kg/m2",
  // HealthKit writes VO2max as ml/kg*min, which UCUM would read as (ml/kg)*min.
  "ml/kg*min": "mL/min/kg",
  "mL/kg*min": "mL/min/kg",
  "ml/(kg*min)": "mL/min/kg",
  "mL/(kg*min)": "mL/min/kg",
  "mL/min·kg": "mL/min/kg",
  "ml/min·kg": "mL/min/kg",
  "mL/kg·min": "mL/min/kg",
  "kcal/hr·kg": "kcal/(kg.h)",
  "kcal/(kg*hr)": "kcal/(kg.h)",
  "kcal/hr*kg": "kcal/(kg.h)",
  "kcal/(hr*kg)": "kcal/(kg.h)",
  "score": "{score}",
};

// Word spellings (Health Connect and similar APIs), looked up in lower case.
// "calories" is left out on purpose: Health Connect means the small calorie by it, most
// other APIs mean kcal, and a silent factor of 1000 is worse than a refused unit.
const WORD_ALIASES: Readonly<Record<string, string>> = {
  "percent": "%",
  "percentage": "%",
  "steps": "{steps}",
  "floors": "{flights}",
  "flights": "{flights}",
  "beats_per_minute": "/min",
  "breaths_per_minute": "/min",
  "steps_per_minute": "/min",
  "revolutions_per_minute": "/min",
  "per_minute": "/min",
  "kilocalories": "kcal",
  "kilojoules": "kJ",
  "joules": "J",
  "meters": "m",
  "metres": "m",
  "kilometers": "km",
  "kilometres": "km",
  "centimeters": "cm",
  "centimetres": "cm",
  "millimeters": "mm",
  "millimetres": "mm",
  "miles": "[mi_i]",
  "feet": "[ft_i]",
  "inches": "[in_i]",
  "yards": "[yd_i]",
  "kilograms": "kg",
  "grams": "g",
  "milligrams": "mg",
  "micrograms": "ug",
  "pounds": "[lb_av]",
  "ounces": "[oz_av]",
  "stones": "[stone_av]",
  "celsius": "Cel",
  "fahrenheit": "[degF]",
  "kelvin": "K",
  "millimeters_of_mercury": "mm[Hg]",
  "millimoles_per_liter": "mmol/L",
  "milligrams_per_deciliter": "mg/dL",
  "milliliters": "mL",
  "millilitres": "mL",
  "liters": "L",
  "litres": "L",
  "fluid_ounces_us": "[foz_us]",
  "meters_per_second": "m/s",
  "kilometers_per_hour": "km/h",
  "miles_per_hour": "[mi_i]/h",
  "watts": "W",
  "milliseconds": "ms",
  "seconds": "s",
  "minutes": "min",
  "hours": "h",
  "milliliters_per_minute_kilogram": "mL/min/kg",
  "microsiemens": "uS",
  "decibels": "dB[SPL]",
  "international_units": "[IU]",
};

// Where a type gives a bare count another meaning: HealthKit stores BMI as a count, and
// breathing disturbances as a count per hour of sleep.
const TYPE_ALIASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  body_mass_index: { "count": "kg/m2", "1": "kg/m2" },
  sleeping_breathing_disturbances: { "count": "/h", "1": "/h" },
};

// g/mol. Converting mmol/L to mg/dL depends on the substance, so UCUM needs its molar mass;
// glucose gives the usual factor 18.0156.
const MOLAR_MASS: Readonly<Record<string, number>> = {
  blood_glucose: 180.156,
};

// HealthKit spells molar concentrations with the molar mass in angle brackets:
// "mmol<180.15588000005408>/L".
const HEALTHKIT_MOLAR = /^mmol<[0-9.]+>\/L$/;

export function toStorageUnit(
  type: QuantityType,
  value: number,
  unit: string | undefined,
): StorageValue | UnitError {
  // A missing or blank unit means the storage unit.
  const given = unit === undefined || unit.trim() === "" ? type.unit : unit.trim();
  if (!Number.isFinite(value)) {
    return { error: `the value for ${type.name} is not a finite number` };
  }

  const { code, fits } = checkedUnit(type, given);
  if (code === undefined) {
    return { error: `unit ${quote(given)} is not a known unit (type ${type.name})` };
  }
  const stored = { unit: type.unit, original_value: value, original_unit: given };
  if (code === type.ucum_unit) {
    return { value, ...stored };
  }
  if (!fits) {
    return { error: `unit ${quote(given)} cannot be converted to ${type.unit} (type ${type.name})` };
  }

  const result = utils.convertUnitTo(code, value, type.ucum_unit, {
    molecularWeight: MOLAR_MASS[type.name] ?? null,
  });
  if (result.status !== "succeeded" || result.toVal === null || !Number.isFinite(result.toVal)) {
    return { error: `unit ${quote(given)} cannot be converted to ${type.unit} (type ${type.name})` };
  }
  return { value: dropFloatNoise(result.toVal), ...stored };
}

/**
 * The UCUM code of a unit as written (a spelling above, or valid UCUM itself), for values
 * of no quantity type such as a meal's other nutrients (`mg`, `IU`, `micrograms`);
 * undefined when it is neither.
 */
export function ucumCodeOf(unit: string): string | undefined {
  const code = spelledCode(unit.trim());
  return isSafeForUcum(code) && utils.validateUnitString(code).status === "valid" ? code : undefined;
}

// The UCUM code of a common spelling, or the spelling itself.
function spelledCode(unit: string): string {
  return own(SYMBOL_ALIASES, unit) ?? own(WORD_ALIASES, unit.toLowerCase()) ?? (HEALTHKIT_MOLAR.test(unit) ? "mmol/L" : unit);
}

// Units checked per type: samples come by the million in a few units, and UCUM's parsing of a
// unit string takes microseconds.
const checkedUnits = new Map<string, { code: string | undefined; fits: boolean }>();

function checkedUnit(type: QuantityType, unit: string): { code: string | undefined; fits: boolean } {
  const key = `${type.name}\u0000${unit}`;
  let checked = checkedUnits.get(key);
  if (!checked) {
    const code = toUcumCode(type, unit);
    checked = { code, fits: code !== undefined && (code === type.ucum_unit || fitsDimensionless(code, type.ucum_unit)) };
    if (checkedUnits.size >= 10_000) checkedUnits.clear();
    checkedUnits.set(key, checked);
  }
  return checked;
}

// The UCUM code for a spelling, or undefined when it is neither an alias nor valid UCUM.
function toUcumCode(type: QuantityType, unit: string): string | undefined {
  let code = own(TYPE_ALIASES[type.name] ?? {}, unit) ?? spelledCode(unit);
  if (type.ucum_unit === "K") {
    // A temperature difference: UCUM reads Cel and [degF] as points on a scale (with an
    // offset), so take them as the steps of the same size, K and [degR].
    if (code === "Cel") code = "K";
    if (code === "[degF]") code = "[degR]";
  }
  if (code === type.ucum_unit) return code;
  if (!isSafeForUcum(code)) return undefined;
  return utils.validateUnitString(code).status === "valid" ? code : undefined;
}

// ucum-lhc logs some malformed unit strings to the console (a space, "()", "(3)", "{x}2"), so
// strings outside the characters our units use, or with those shapes, are refused before
// reaching it. It also looks unit atoms up in plain objects: "constructor" or "toString"
// pass its validation and then throw on conversion.
const UCUM_CHARACTERS = /^[A-Za-z0-9.\/*()[\]{}%'^_+-]+$/;
const MALFORMED = /\(\d*\)|\}\d/;
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

function isSafeForUcum(code: string): boolean {
  if (!UCUM_CHARACTERS.test(code) || MALFORMED.test(code)) return false;
  return !code.split(/[^A-Za-z_]+/).some((atom) => PROTOTYPE_NAMES.has(atom));
}

// Own keys only: a unit spelled "constructor" must not find Object.prototype.constructor.
function own(table: Readonly<Record<string, string>>, key: string): string | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

// UCUM treats every dimensionless unit as convertible to every other ({steps} to %, {score}
// to {flights}). For a dimensionless storage unit, accept only itself or a plain number
// ("1", "count", "fraction"; for "%" a plain number is a fraction of 1).
function fitsDimensionless(code: string, storageCode: string): boolean {
  if (!isDimensionless(storageCode)) return true;
  return code === "1";
}

function isDimensionless(code: string): boolean {
  return utils.convertUnitTo(code, 1, "1").status === "succeeded";
}

// Conversions leave binary noise (68.03885550000001 kg); twelve significant digits are
// far beyond what any sensor resolves.
function dropFloatNoise(value: number): number {
  return Number(value.toPrecision(12));
}

function quote(unit: string): string {
  return JSON.stringify(unit.length > 40 ? `${unit.slice(0, 40)}…` : unit);
}

/**
 * A value in the storage unit of its type converted back to `unit` (as toStorageUnit took
 * it); undefined when the unit is not one toStorageUnit converts from.
 */
export function fromStorageUnit(type: QuantityType, value: number, unit: string): number | undefined {
  const { code } = checkedUnit(type, unit.trim());
  if (code === undefined) return undefined;
  if (code === type.ucum_unit) return value;
  const result = utils.convertUnitTo(type.ucum_unit, value, code, { molecularWeight: MOLAR_MASS[type.name] ?? null });
  if (result.status !== "succeeded" || result.toVal === null || !Number.isFinite(result.toVal)) return undefined;
  return dropFloatNoise(result.toVal);
}
