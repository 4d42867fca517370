import { z } from "zod";
import { ZDateTime } from "../../schemas/common.ts";

export const ZTenantSummary = z
  .object({
    id: z.uuid(),
    name: z.string(),
    created_at: ZDateTime,
    users: z.number().int().min(0).describe("How many active users the tenant has (not those being deleted)."),
  })
  .describe("A tenant of the instance; never a key.");
