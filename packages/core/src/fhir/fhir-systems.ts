/** Code systems and profiles of the FHIR Observation search, fixed by HL7 and LOINC. */
export const LOINC = "http://loinc.org";
export const UCUM = "http://unitsofmeasure.org";
export const OBSERVATION_CATEGORY = "http://terminology.hl7.org/CodeSystem/observation-category";
export const DATA_ABSENT_REASON = "http://terminology.hl7.org/CodeSystem/data-absent-reason";
/** ISO/IEEE 11073 (MDC) codes, as the HL7 SampledData example codes an ECG lead. */
export const MDC = "urn:oid:2.16.840.1.113883.6.24";
/** LOINC's sleep durations (awake time and sleep latency have no LOINC code of their own). */
export const LOINC_SLEEP = { duration: "93832-4", light: "93830-8", deep: "93831-6", rem: "93829-0" } as const;
export const VITAL_SIGNS_PROFILE = "http://hl7.org/fhir/StructureDefinition/vitalsigns";
/** HL7's statistic codes (average, minimum, maximum, count, sum...), as the $stats operation uses them. */
export const OBSERVATION_STATISTICS = "http://terminology.hl7.org/CodeSystem/observation-statistics";
/** The IANA zone of a date, dateTime or instant (FHIR's core extension tz-code). */
export const TZ_CODE_EXTENSION = "http://hl7.org/fhir/StructureDefinition/tz-code";

/**
 * The instance's own code systems, all under `{fhir_code_system_base}` (SVC_FHIR_CODE_SYSTEM_BASE,
 * default `{public_url}/fhir/CodeSystem`).
 */
export interface FhirSystems {
  /** Codes: a quantity type of the catalog (or one the user has samples of). */
  quantityType: string;
  /** Codes: blood_pressure, sleep_session, workout, daily_summary, ecg_recording, nutrition_log. */
  recordType: string;
  /** Codes: a figure of a record that has no quantity type, named as in the REST answer (deep_seconds, score...). */
  figure: string;
  /** Codes: a workout's activity_type. */
  activityType: string;
  /** Codes: an ECG recording's classification, as the device reported it. */
  ecgClassification: string;
  /** meta.tag: the provider a record came from. */
  provider: string;
  /** meta.tag `day`: an Observation that aggregates a local day of samples (a share's daily aggregates). */
  aggregate: string;
  /** Bundle meta.tag: how much of the records a share holds, `daily` or `full`. */
  shareDetail: string;
  /** meta.tag: the source (app or vendor) within the provider. */
  source: string;
  /** identifier: the Observation's own id. */
  observationId: string;
  /** identifier: the id the provider gave the record, followed by `/{provider}`. */
  externalId: string;
}

export function fhirSystems(base: string): FhirSystems {
  const trimmed = base.replace(/\/+$/, "");
  return {
    quantityType: `${trimmed}/quantity-type`,
    recordType: `${trimmed}/record-type`,
    figure: `${trimmed}/figure`,
    activityType: `${trimmed}/activity-type`,
    ecgClassification: `${trimmed}/ecg-classification`,
    provider: `${trimmed}/provider`,
    aggregate: `${trimmed}/aggregate`,
    shareDetail: `${trimmed}/share-detail`,
    source: `${trimmed}/source`,
    observationId: `${trimmed}/observation-id`,
    externalId: `${trimmed}/external-id`,
  };
}

/** The default `{fhir_code_system_base}` of an instance. */
export const defaultFhirCodeSystemBase = (publicUrl: string): string => `${publicUrl.replace(/\/+$/, "")}/fhir/CodeSystem`;
