import { auditContextOf, removeTenantProviderKeys } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import {
  deleteTenantProviderKeysMeta,
  ZDeleteTenantProviderKeysRequestSchema,
  ZDeleteTenantProviderKeysResponseSchema,
} from "./delete-tenant-provider-keys.types.ts";

export const deleteTenantProviderKeys = adminProcedure
  .meta(deleteTenantProviderKeysMeta)
  .input(ZDeleteTenantProviderKeysRequestSchema)
  .output(ZDeleteTenantProviderKeysResponseSchema)
  .mutation(({ ctx, input }) => removeTenantProviderKeys(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), input.tenant_id, input.provider));
