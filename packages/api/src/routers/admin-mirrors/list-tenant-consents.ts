import { auditContextOf, listConsentsForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { listTenantConsentsMeta, ZListTenantConsentsRequestSchema, ZListTenantConsentsResponseSchema } from "./list-tenant-consents.types.ts";

export const listTenantConsents = adminProcedure
  .meta(listTenantConsentsMeta)
  .input(ZListTenantConsentsRequestSchema)
  .output(ZListTenantConsentsResponseSchema)
  .query(({ ctx, input }) => listConsentsForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), input.tenant_id, input.id));
