import { auditContextOf, setTenantProviderSwitchForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { updateTenantProviderMeta, ZUpdateTenantProviderRequestSchema, ZUpdateTenantProviderResponseSchema } from "./update-tenant-provider.types.ts";

export const updateTenantProvider = adminProcedure
  .meta(updateTenantProviderMeta)
  .input(ZUpdateTenantProviderRequestSchema)
  .output(ZUpdateTenantProviderResponseSchema)
  .mutation(({ ctx, input }) => setTenantProviderSwitchForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), input.tenant_id, input.provider, input.enabled));
