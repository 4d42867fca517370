import { z } from "zod";
import { ZOutranked, ZProvenance } from "../../schemas/records.ts";

export const ZQuantitySample = z.object({
  id: z.number().int().describe("The sample's id."),
  type: z.string().describe("A quantity type of the catalog, e.g. `heart_rate`, `step_count`."),
  value: z.number().describe("In the storage unit of the type."),
  unit: z.string().describe("The storage unit of the type, e.g. `count/min`."),
  start_date: z.iso.datetime(),
  end_date: z.iso.datetime(),
  source_name: z.string().nullable().describe("The app or device name as the source reported it (HealthKit sourceName)."),
  source_bundle_id: z.string().nullable().describe("The source's bundle or package id."),
  device_model: z.string().nullable(),
  product_type: z.string().nullable().describe("Hardware product type, e.g. `Watch7,1`."),
  external_id: z.string().nullable().describe("The provider's id of the record."),
  is_primary_source: z.boolean(),
  was_user_entered: z.boolean(),
  metadata: z
    .record(z.string(), z.unknown())
    .describe("Provider fields as sent, plus `timezone`, and `original_value` and `original_unit` when the value was converted."),
  ...ZProvenance,
  outranked: ZOutranked,
});
