import { router } from "../../trpc.ts";
import { getCapabilityStatement } from "./get-capability-statement.ts";
import { readObservation } from "./read-observation.ts";
import { readPatient } from "./read-patient.ts";
import { searchObservations } from "./search-observations.ts";
import { searchPatientObservations } from "./search-patient-observations.ts";
import { searchPatients } from "./search-patients.ts";

/** The FHIR R4 base of a tenant, /v1/fhir (docs/reference/fhir.md). */
export const fhirBaseRouter = router({ getCapabilityStatement, readPatient, searchPatients, readObservation, searchObservations, searchPatientObservations });
