import { textOf, type JsonObject } from "./json.ts";

/** What every Dexcom record says about where it came from. */
export interface DexcomProvenance {
  source: "dexcom";
  source_name: "Dexcom";
  device: string | null;
  device_model: string | null;
  /** A CGM sensor is worn on the body. */
  on_body: true;
}

const GENERATIONS: Readonly<Record<string, string>> = {
  g4: "Dexcom G4",
  g5: "Dexcom G5",
  g6: "Dexcom G6",
  "g6+": "Dexcom G6+",
  g7: "Dexcom G7",
  dexcomPro: "Dexcom Pro",
};

/** The provenance of one record, from its transmitterGeneration (`g6`, `g7`...). */
export function provenanceOf(record: JsonObject): DexcomProvenance {
  const generation = textOf(record.transmitterGeneration, 20);
  const device = generation && Object.hasOwn(GENERATIONS, generation) ? (GENERATIONS[generation] ?? null) : null;
  return { source: "dexcom", source_name: "Dexcom", device, device_model: device ? generation : null, on_body: true };
}
