import { QUANTITY_TYPES } from "@svc/core";
import { z } from "zod";
import type { ToolDefinition } from "../tool-definition.ts";

/** The catalog is the same for every caller: no procedure, nothing per user. */
export const listQuantityTypes: ToolDefinition = {
  name: "list_quantity_types",
  title: "Quantity types",
  description:
    "The catalog of quantity types get_samples and get_sample_stats accept: type name, storage unit (values are returned in it), UCUM unit, LOINC code and a short meaning. One answer, not paged.",
  inputSchema: z.object({}),
  async run() {
    const records = QUANTITY_TYPES.map((type) => ({
      type: type.name,
      unit: type.unit,
      ucum_unit: type.ucum_unit,
      loinc_code: type.loinc_code,
      group: type.group,
      description: type.description,
    }));
    return { records, next_cursor: null, truncated: false };
  },
};
