import { router } from "../../trpc.ts";
import { cancelExport } from "./cancel-export.ts";
import { getExportStatus } from "./get-export-status.ts";
import { kickOffPatientExport } from "./kick-off-patient-export.ts";
import { kickOffPatientsExport } from "./kick-off-patients-export.ts";

/**
 * FHIR Bulk Data export of the base /v1/fhir (docs/reference/api/fhir.md); the files are an
 * express route (apps/server's bulk-files-router.ts). Registered before the base, whose
 * Patient/{id} would otherwise take Patient/$export.
 */
export const fhirExportRouter = router({ kickOffPatientsExport, kickOffPatientExport, getExportStatus, cancelExport });
