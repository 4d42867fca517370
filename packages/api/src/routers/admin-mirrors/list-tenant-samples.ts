import { auditContextOf, listSamplesForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { listTenantSamplesMeta, ZListTenantSamplesRequestSchema, ZListTenantSamplesResponseSchema } from "./list-tenant-samples.types.ts";

export const listTenantSamples = adminProcedure
  .meta(listTenantSamplesMeta)
  .input(ZListTenantSamplesRequestSchema)
  .output(ZListTenantSamplesResponseSchema)
  .query(({ ctx, input }) => {
    const { tenant_id, id, ...query } = input;
    return listSamplesForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), tenant_id, id, query);
  });
