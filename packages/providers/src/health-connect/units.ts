// Health Connect's unit classes (androidx.health.connect.client.units) as JSON.
//
// Two spellings are read:
//  - the getters of the Kotlin class, as any bean serializer (and react-native-health-connect)
//    writes them: `{"inKilograms": 72.5}`; when several are sent the first one in the order
//    below wins, so a client that sends every getter gives the storage unit;
//  - `{"value": 72.5, "unit": "kilograms"}`, with the unit as Health Connect names it (the
//    lower-case name of its unit type, `kilograms`, `millimeters_of_mercury`, ...) or as a
//    symbol (`kg`, `mmHg`).
// `Percentage` is `{"value": 97}` (or a bare number). `calories` is refused in the second
// spelling: Health Connect means the small calorie by it, most people the food calorie;
// `inCalories` is unambiguous (it is Health Connect's own getter) and read as small calories.

export type UnitKind =
  | "mass"
  | "length"
  | "energy"
  | "power"
  | "pressure"
  | "temperature"
  | "temperature_delta"
  | "velocity"
  | "volume"
  | "blood_glucose"
  | "percentage";

/** A measurement as sent (value and a unit symbol svc's converter accepts) and in the kind's canonical unit. */
export interface Measurement {
  value: number;
  /** A symbol `toStorageUnit` accepts (`kg`, `lb`, `degF`, `mmol/L`, ...). */
  unit: string;
  /** The value in CANONICAL_UNITS[kind]. */
  canonical: number;
}

/** The unit each kind is converted to when svc stores a figure of its own (nutrition, workouts, routes). */
export const CANONICAL_UNITS: Readonly<Record<UnitKind, string>> = {
  mass: "g",
  length: "m",
  energy: "kcal",
  power: "W",
  pressure: "mmHg",
  temperature: "degC",
  temperature_delta: "degC",
  velocity: "m/s",
  volume: "mL",
  blood_glucose: "mg/dL",
  percentage: "%",
};

interface UnitDef {
  symbol: string;
  toCanonical: (value: number) => number;
}

const linear = (symbol: string, factor: number): UnitDef => ({ symbol, toCanonical: (v) => v * factor });
const FAHRENHEIT: UnitDef = { symbol: "degF", toCanonical: (v) => ((v - 32) * 5) / 9 };
const FAHRENHEIT_DELTA: UnitDef = { symbol: "degF", toCanonical: (v) => (v * 5) / 9 };
const KCAL_PER_DAY_IN_WATTS = 4184 / 86_400;
const GLUCOSE_MG_PER_DL_PER_MMOL_PER_L = 18.0156;

/** The getters of each unit class, the storage unit of its usual catalog type first. */
const GETTERS: Readonly<Record<UnitKind, ReadonlyArray<readonly [string, UnitDef]>>> = {
  mass: [
    ["inKilograms", linear("kg", 1000)],
    ["inGrams", linear("g", 1)],
    ["inMilligrams", linear("mg", 0.001)],
    ["inMicrograms", linear("ug", 0.000_001)],
    ["inPounds", linear("lb", 453.592_37)],
    ["inOunces", linear("oz", 28.349_523_125)],
  ],
  length: [
    ["inMeters", linear("m", 1)],
    ["inKilometers", linear("km", 1000)],
    ["inMiles", linear("mi", 1609.344)],
    ["inFeet", linear("ft", 0.3048)],
    ["inInches", linear("in", 0.0254)],
  ],
  energy: [
    ["inKilocalories", linear("kcal", 1)],
    ["inKilojoules", linear("kJ", 1 / 4.184)],
    ["inJoules", linear("J", 1 / 4184)],
    ["inCalories", linear("cal", 0.001)],
  ],
  power: [
    ["inWatts", linear("W", 1)],
    ["inKilocaloriesPerDay", linear("kcal/d", KCAL_PER_DAY_IN_WATTS)],
  ],
  pressure: [["inMillimetersOfMercury", linear("mmHg", 1)]],
  temperature: [
    ["inCelsius", linear("degC", 1)],
    ["inFahrenheit", FAHRENHEIT],
  ],
  temperature_delta: [
    ["inCelsius", linear("degC", 1)],
    ["inFahrenheit", FAHRENHEIT_DELTA],
  ],
  velocity: [
    ["inMetersPerSecond", linear("m/s", 1)],
    ["inKilometersPerHour", linear("km/h", 1 / 3.6)],
    ["inMilesPerHour", linear("mph", 0.447_04)],
  ],
  volume: [
    ["inMilliliters", linear("mL", 1)],
    ["inLiters", linear("L", 1000)],
    ["inFluidOuncesUs", linear("fl_oz_us", 29.573_529_562_5)],
  ],
  blood_glucose: [
    ["inMilligramsPerDeciliter", linear("mg/dL", 1)],
    ["inMillimolesPerLiter", linear("mmol/L", GLUCOSE_MG_PER_DL_PER_MMOL_PER_L)],
  ],
  percentage: [],
};

/** Unit names of the `{value, unit}` spelling, in lower case, by kind. */
const NAMES: Readonly<Record<UnitKind, Readonly<Record<string, UnitDef>>>> = {
  mass: {
    kilograms: linear("kg", 1000), kg: linear("kg", 1000),
    grams: linear("g", 1), g: linear("g", 1),
    milligrams: linear("mg", 0.001), mg: linear("mg", 0.001),
    micrograms: linear("ug", 0.000_001), ug: linear("ug", 0.000_001), mcg: linear("ug", 0.000_001),
    pounds: linear("lb", 453.592_37), lb: linear("lb", 453.592_37), lbs: linear("lb", 453.592_37),
    ounces: linear("oz", 28.349_523_125), oz: linear("oz", 28.349_523_125),
  },
  length: {
    meters: linear("m", 1), metres: linear("m", 1), m: linear("m", 1),
    kilometers: linear("km", 1000), kilometres: linear("km", 1000), km: linear("km", 1000),
    miles: linear("mi", 1609.344), mi: linear("mi", 1609.344),
    feet: linear("ft", 0.3048), ft: linear("ft", 0.3048),
    inches: linear("in", 0.0254), in: linear("in", 0.0254),
    centimeters: linear("cm", 0.01), cm: linear("cm", 0.01),
  },
  energy: {
    kilocalories: linear("kcal", 1), kcal: linear("kcal", 1),
    kilojoules: linear("kJ", 1 / 4.184), kj: linear("kJ", 1 / 4.184),
    joules: linear("J", 1 / 4184), j: linear("J", 1 / 4184),
  },
  power: {
    watts: linear("W", 1), w: linear("W", 1),
    kilocalories_per_day: linear("kcal/d", KCAL_PER_DAY_IN_WATTS), "kcal/d": linear("kcal/d", KCAL_PER_DAY_IN_WATTS),
  },
  pressure: { millimeters_of_mercury: linear("mmHg", 1), mmhg: linear("mmHg", 1) },
  temperature: {
    celsius: linear("degC", 1), degc: linear("degC", 1), "°c": linear("degC", 1),
    fahrenheit: FAHRENHEIT, degf: FAHRENHEIT, "°f": FAHRENHEIT,
  },
  temperature_delta: {
    celsius: linear("degC", 1), degc: linear("degC", 1), "°c": linear("degC", 1),
    fahrenheit: FAHRENHEIT_DELTA, degf: FAHRENHEIT_DELTA, "°f": FAHRENHEIT_DELTA,
  },
  velocity: {
    meters_per_second: linear("m/s", 1), "m/s": linear("m/s", 1),
    kilometers_per_hour: linear("km/h", 1 / 3.6), "km/h": linear("km/h", 1 / 3.6),
    miles_per_hour: linear("mph", 0.447_04), mph: linear("mph", 0.447_04),
  },
  volume: {
    milliliters: linear("mL", 1), millilitres: linear("mL", 1), ml: linear("mL", 1),
    liters: linear("L", 1000), litres: linear("L", 1000), l: linear("L", 1000),
    fluid_ounces_us: linear("fl_oz_us", 29.573_529_562_5),
  },
  blood_glucose: {
    milligrams_per_deciliter: linear("mg/dL", 1), "mg/dl": linear("mg/dL", 1),
    millimoles_per_liter: linear("mmol/L", GLUCOSE_MG_PER_DL_PER_MMOL_PER_L), "mmol/l": linear("mmol/L", GLUCOSE_MG_PER_DL_PER_MMOL_PER_L),
  },
  percentage: { percent: linear("%", 1), percentage: linear("%", 1), "%": linear("%", 1) },
};

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const finite = (value: unknown): value is number => typeof value === "number" && Number.isFinite(value);

/**
 * Reads a unit value of a kind. Undefined when the field is missing or null; a reason
 * (naming the field, never the value) when it is there but not readable.
 */
export function readMeasurement(raw: unknown, kind: UnitKind, field: string): Measurement | undefined | { error: string } {
  if (raw === undefined || raw === null) return undefined;
  if (kind === "percentage" && finite(raw)) return { value: raw, unit: "%", canonical: raw };
  if (!isObject(raw)) return { error: `${field} is not a ${kind.replace("_", " ")} object` };
  for (const [getter, def] of GETTERS[kind]) {
    if (!Object.hasOwn(raw, getter)) continue;
    const value = raw[getter];
    if (!finite(value)) return { error: `${field}.${getter} is not a finite number` };
    return { value, unit: def.symbol, canonical: def.toCanonical(value) };
  }
  if (Object.hasOwn(raw, "value")) {
    const value = raw.value;
    if (!finite(value)) return { error: `${field}.value is not a finite number` };
    const unit = raw.unit;
    if (unit === undefined || unit === null) {
      if (kind === "percentage") return { value, unit: "%", canonical: value };
      return { error: `${field} has a value but no unit` };
    }
    if (typeof unit !== "string") return { error: `${field}.unit is not a string` };
    const name = unit.trim().toLowerCase();
    if (kind === "energy" && (name === "calories" || name === "cal")) {
      return { error: `${field}.unit calories is ambiguous (small or food calorie); send kilocalories or inCalories` };
    }
    const def = Object.hasOwn(NAMES[kind], name) ? NAMES[kind][name] : undefined;
    if (!def) return { error: `${field}.unit is not a ${kind.replace("_", " ")} unit svc knows` };
    return { value, unit: def.symbol, canonical: def.toCanonical(value) };
  }
  return { error: `${field} has none of the ${kind.replace("_", " ")} getters nor a value` };
}
