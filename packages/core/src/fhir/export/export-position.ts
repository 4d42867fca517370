/** The resource types an export writes, in the order their files come. */
export const FHIR_EXPORT_TYPES = ["Patient", "Observation"] as const;
export type FhirExportType = (typeof FHIR_EXPORT_TYPES)[number];

/**
 * Where an export continues (fhir_exports.resume_position): the number of its next file, the
 * type being written, and the last resource in a durable file. Patient: `user` is the last
 * user written. Observation: `user` is the user being read and `after` the search cursor of
 * its last Observation written.
 */
export interface ExportPosition {
  fileNumber: number;
  type: FhirExportType;
  user?: string;
  after?: string;
}
