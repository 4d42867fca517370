import { putTenantProviderKeys } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { setTenantProviderKeysMeta, ZSetTenantProviderKeysRequestSchema, ZSetTenantProviderKeysResponseSchema } from "./set-tenant-provider-keys.types.ts";

export const setTenantProviderKeys = adminProcedure
  .meta(setTenantProviderKeysMeta)
  .input(ZSetTenantProviderKeysRequestSchema)
  .output(ZSetTenantProviderKeysResponseSchema)
  .mutation(({ ctx, input }) => putTenantProviderKeys(ctx.deps, ctx.principal.adminKeyId, input.tenant_id, input.provider, input.keys));
