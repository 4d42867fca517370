import { z } from "zod";
import { ZDateTime } from "../../schemas/common.ts";

export const ZUser = z
  .object({
    id: z.uuid(),
    external_ref: z.string().nullable().describe("The tenant's own identifier of the user, unique in the tenant."),
    status: z.enum(["active", "deleting"]),
    created_at: ZDateTime,
  })
  .describe("An end user of the tenant.");
