import { QUANTITY_TYPES } from "@svc/core";
import { z } from "zod";
import type { ToolDefinition } from "../tool-definition.ts";
import { answerSchema } from "../results/output-schema.ts";
import { capRecords } from "../results/read-records.ts";
import type { RecordShape } from "../results/record-shape.ts";

const QUANTITY_TYPE: RecordShape = {
  schema: z.object({
    type: z.string().describe("The type name get_samples and get_sample_stats take."),
    unit: z.string().describe("The storage unit: every value of the type is returned in it (`%` means 0 to 100)."),
    ucum_unit: z.string().describe("The same unit as a UCUM code."),
    loinc_code: z.string().nullable().describe("The LOINC code of the type, when it has one."),
    group: z.string().describe("The group the type belongs to (activity, heart, body, ...)."),
    aggregation: z
      .enum(["cumulative", "discrete"])
      .describe("`cumulative`: amounts over an interval that add up (use sum); `discrete`: readings at a time (use avg, min, max)."),
    description: z.string().describe("A short meaning."),
  }),
};

/** The catalog is the same for every caller: no procedure, nothing per user. */
export const listQuantityTypes: ToolDefinition = {
  name: "list_quantity_types",
  title: "Quantity types",
  description:
    "The catalog of quantity types get_samples and get_sample_stats accept: type name, storage unit (values are returned in it; `%` means 0 to 100), UCUM unit, LOINC code, whether values add up (cumulative) or are readings (discrete), and a short meaning. One answer, not paged.",
  inputSchema: z.object({}),
  outputSchema: answerSchema([QUANTITY_TYPE]),
  async run() {
    const records = QUANTITY_TYPES.map((type) => ({
      type: type.name,
      unit: type.unit,
      ucum_unit: type.ucum_unit,
      loinc_code: type.loinc_code,
      group: type.group,
      aggregation: type.aggregation,
      description: type.description,
    }));
    return capRecords(QUANTITY_TYPE, records);
  },
};
