import { z } from "zod";

// The FHIR R4 elements the Observation search answers with (only those it uses).
export const ZCoding = z.object({ system: z.string().optional(), code: z.string().optional(), display: z.string().optional() });
export const ZCodeableConcept = z.object({ coding: z.array(ZCoding).optional(), text: z.string().optional() });
export const ZQuantity = z.object({
  value: z.number().optional(),
  unit: z.string().optional(),
  system: z.string().optional().describe("http://unitsofmeasure.org (UCUM) when the unit is a UCUM code."),
  code: z.string().optional(),
});
export const ZReference = z.object({ reference: z.string().optional(), display: z.string().optional() });
export const ZPeriod = z.object({ start: z.string().optional(), end: z.string().optional() });
export const ZSampledData = z.object({
  origin: ZQuantity,
  period: z.number().describe("Milliseconds between samples."),
  dimensions: z.number().int(),
  data: z.string().optional().describe("The samples, separated by spaces."),
});

const values = {
  valueQuantity: ZQuantity.optional(),
  valueCodeableConcept: ZCodeableConcept.optional(),
  dataAbsentReason: ZCodeableConcept.optional().describe("Why the value is missing (http://terminology.hl7.org/CodeSystem/data-absent-reason)."),
};

export const ZObservationComponent = z.object({
  code: ZCodeableConcept,
  ...values,
  valueSampledData: ZSampledData.optional().describe("ECG voltages in microvolts."),
});

export const ZObservation = z
  .object({
    resourceType: z.literal("Observation"),
    id: z.string().optional().describe("qs-, bp-, sleep-, workout-, daily-, ecg- or nutrition- and the record's id."),
    meta: z
      .object({
        source: z.string().optional(),
        lastUpdated: z.string().optional().describe("When svc stored the record's current version (the /v1/fhir base only; equals issued)."),
        profile: z.array(z.string()).optional().describe("The R4 vital signs profiles, for vital signs."),
        tag: z.array(ZCoding).optional().describe("The provider and source the record came from."),
      })
      .optional(),
    identifier: z.array(z.object({ system: z.string().optional(), value: z.string().optional() })).optional(),
    status: z.enum(["registered", "preliminary", "final", "amended", "corrected", "cancelled", "entered-in-error", "unknown"]),
    category: z.array(ZCodeableConcept).optional(),
    code: ZCodeableConcept,
    subject: ZReference.optional(),
    effectiveDateTime: z.string().optional(),
    effectivePeriod: ZPeriod.optional(),
    issued: z.string().optional(),
    performer: z.array(ZReference).optional(),
    ...values,
    device: ZReference.optional(),
    component: z.array(ZObservationComponent).optional(),
  })
  .describe("A FHIR R4 Observation.");

export const ZBundleLink = z.object({ relation: z.string(), url: z.string() });

export const ZBundleEntry = z.object({
  fullUrl: z.string().optional(),
  resource: ZObservation.optional(),
  search: z.object({ mode: z.enum(["match", "include", "outcome"]).optional() }).optional(),
});

export const ZObservationBundle = z
  .object({
    resourceType: z.literal("Bundle"),
    type: z.literal("searchset"),
    link: z.array(ZBundleLink).optional().describe("`self`, and `next` unless this is the last page."),
    entry: z.array(ZBundleEntry).optional().describe("Absent on an empty page."),
  })
  .describe("A FHIR R4 searchset Bundle of Observations; `total` is left out.");
