export { defaultFhirCodeSystemBase, fhirSystems, type FhirSystems, TZ_CODE_EXTENSION } from "./fhir-systems.ts";
export { type ObservationFilter } from "./observation-filter.ts";
export { BLOOD_PRESSURE_TYPES, isBloodPressureType, RECORD_KINDS, type RecordKind } from "./observation-kinds.ts";
export { type DayAggregate, dayAggregateObservation } from "./observations/day-aggregate-observation.ts";
export * from "./search-observations.ts";
