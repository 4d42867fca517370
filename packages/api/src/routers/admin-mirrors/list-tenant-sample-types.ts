import { auditContextOf, listSampleTypesForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import {
  listTenantSampleTypesMeta,
  ZListTenantSampleTypesRequestSchema,
  ZListTenantSampleTypesResponseSchema,
} from "./list-tenant-sample-types.types.ts";

export const listTenantSampleTypes = adminProcedure
  .meta(listTenantSampleTypesMeta)
  .input(ZListTenantSampleTypesRequestSchema)
  .output(ZListTenantSampleTypesResponseSchema)
  .query(({ ctx, input }) => listSampleTypesForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), input.tenant_id, input.id));
