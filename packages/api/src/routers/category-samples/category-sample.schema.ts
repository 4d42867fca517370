import { z } from "zod";
import { ZOutranked, ZProvenance } from "../../schemas/records.ts";

export const ZCategorySample = z.object({
  id: z.number().int().describe("The category sample's id."),
  type: z.string().describe("A category type of the catalog (e.g. `menstrual_flow`, `headache`, `mindful_session`) or a provider's own snake_case type."),
  value: z
    .string()
    .describe("One of the values the catalog allows for the type (snake_case, e.g. `heavy`, `moderate`, `not_applicable` for events); free text up to 64 characters for a type outside the catalog."),
  start_date: z.iso.datetime().describe("Start of the interval (an instant when equal to end_date)."),
  end_date: z.iso.datetime().describe("End of the interval, exclusive."),
  source_name: z.string().nullable().describe("The app or device name as the source reported it (HealthKit sourceName)."),
  source_bundle_id: z.string().nullable().describe("The source's bundle or package id."),
  device_model: z.string().nullable().describe("The device model as the source reported it."),
  external_id: z.string().nullable().describe("The provider's id of the record."),
  was_user_entered: z.boolean().describe("Entered by hand rather than measured."),
  metadata: z.record(z.string(), z.unknown()).describe("Provider fields as sent, plus `timezone` (IANA zone or ±hh:mm offset) where it was recorded."),
  ...ZProvenance,
  outranked: ZOutranked,
});
