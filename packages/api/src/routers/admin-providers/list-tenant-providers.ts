import { auditContextOf, listTenantProviderSwitchesForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { listTenantProvidersMeta, ZListTenantProvidersRequestSchema, ZListTenantProvidersResponseSchema } from "./list-tenant-providers.types.ts";

export const listTenantProviders = adminProcedure
  .meta(listTenantProvidersMeta)
  .input(ZListTenantProvidersRequestSchema)
  .output(ZListTenantProvidersResponseSchema)
  .query(async ({ ctx, input }) => ({ ...(await listTenantProviderSwitchesForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), input.tenant_id)), next_cursor: null }));
