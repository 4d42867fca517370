import { z } from "zod";
import { ZDateTime } from "../../schemas/common.ts";

export const ZTenantSummary = z
  .object({
    id: z.uuid(),
    name: z.string(),
    created_at: ZDateTime,
    users: z.number().int().min(0).describe("How many active users the tenant has (not those being deleted)."),
    status: z
      .enum(["active", "deleting"])
      .describe("`deleting` from DELETE /v1/admin/tenants/{tenant_id} until the tenant is gone: its keys answer 401, its mirrors 404."),
    deletion_job_id: z.uuid().nullable().describe("While deleting: the deletion, at GET /v1/admin/tenant-deletions/{job_id}; else null."),
  })
  .describe("A tenant of the instance; never a key.");

export const ZTenantDeletion = z
  .object({
    job_id: z.uuid(),
    tenant_id: z.uuid(),
    tenant_name: z.string().describe("The tenant's name when its deletion was asked for."),
    status: z.enum(["pending", "running", "done", "failed"]).describe("`done`: every user, raw file and row of the tenant is gone, and the tenant."),
    users_total: z.number().int().min(0).describe("Users the tenant had when the deletion was asked for."),
    users_deleted: z.number().int().min(0).describe("How many of them are deleted so far."),
    created_at: ZDateTime,
    started_at: ZDateTime.nullable().describe("null until the job starts."),
    finished_at: ZDateTime.nullable().describe("null until the job ends."),
  })
  .describe("The deletion of a whole tenant; kept after the tenant is gone.");
