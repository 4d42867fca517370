import { auditContextOf, putTenantProviderKeys } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { setTenantProviderKeysMeta, ZSetTenantProviderKeysRequestSchema, ZSetTenantProviderKeysResponseSchema } from "./set-tenant-provider-keys.types.ts";

export const setTenantProviderKeys = adminProcedure
  .meta(setTenantProviderKeysMeta)
  .input(ZSetTenantProviderKeysRequestSchema)
  .output(ZSetTenantProviderKeysResponseSchema)
  .mutation(({ ctx, input }) => putTenantProviderKeys(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), input.tenant_id, input.provider, input.keys));
