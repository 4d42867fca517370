import { auditContextOf, getTenantProviderKeys as readTenantProviderKeys } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { getTenantProviderKeysMeta, ZGetTenantProviderKeysRequestSchema, ZGetTenantProviderKeysResponseSchema } from "./get-tenant-provider-keys.types.ts";

export const getTenantProviderKeys = adminProcedure
  .meta(getTenantProviderKeysMeta)
  .input(ZGetTenantProviderKeysRequestSchema)
  .output(ZGetTenantProviderKeysResponseSchema)
  .query(({ ctx, input }) => readTenantProviderKeys(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), input.tenant_id, input.provider));
