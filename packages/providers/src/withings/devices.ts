// Withings device models (the `model_id` of its answers): names and whether they are worn.

/** `model_id` -> model name, from Withings' model table. */
const MODEL_NAMES: Readonly<Record<number, string>> = {
  1: "Withings WBS01",
  2: "WS30",
  3: "Kid Scale",
  4: "Smart Body Analyzer",
  5: "Body+",
  6: "Body Cardio",
  7: "Body",
  9: "Body Pro",
  10: "Body Scan",
  11: "WBS10",
  12: "WBS11",
  18: "Body Comp",
  21: "Smart Baby Monitor",
  22: "Withings Home",
  41: "Withings Blood Pressure Monitor V1",
  42: "Withings Blood Pressure Monitor V2",
  43: "Withings Blood Pressure Monitor V3",
  44: "BPM Core",
  45: "BPM Connect",
  46: "BPM Connect Pro",
  47: "BPM Pro 2",
  48: "BPM Vision",
  51: "Pulse",
  52: "Activite",
  53: "Activite (Pop, Steel)",
  54: "Withings Go",
  55: "Activite Steel HR",
  58: "Pulse HR",
  59: "Activite Steel HR Sport Edition",
  60: "Aura Dock",
  61: "Aura Sensor",
  63: "Aura Sensor V2",
  70: "Thermo",
  71: "BeamO",
  90: "Move",
  91: "Move ECG",
  92: "Move ECG",
  93: "ScanWatch",
  94: "ScanWatch 2",
  95: "ScanWatch Light",
  1051: "iOS step tracker",
  1052: "iOS step tracker",
  1053: "Android step tracker",
  1054: "Android step tracker",
  1055: "GoogleFit tracker",
  1056: "Samsung Health tracker",
  1057: "HealthKit step iPhone tracker",
  1058: "HealthKit step Apple Watch tracker",
  1059: "HealthKit other step tracker",
  1060: "Google Health Connect",
  1062: "Huawei tracker",
};

/** Activity trackers and watches (worn on the wrist), by `model_id`. */
const WORN_MODELS: ReadonlySet<number> = new Set([51, 52, 53, 54, 55, 58, 59, 90, 91, 92, 93, 94, 95]);

export function modelName(modelId: unknown, fallback: unknown = null): string | null {
  if (typeof modelId === "number" && Object.hasOwn(MODEL_NAMES, modelId)) return MODEL_NAMES[modelId] ?? null;
  return typeof fallback === "string" && fallback.trim() !== "" ? fallback.trim().slice(0, 100) : null;
}

export function isWornModel(modelId: unknown): boolean {
  return typeof modelId === "number" && WORN_MODELS.has(modelId);
}
