import { listTenantProviders } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { listProvidersMeta, ZListProvidersRequestSchema, ZListProvidersResponseSchema } from "./list-providers.types.ts";

export const listProviders = tenantProcedure
  .meta(listProvidersMeta)
  .input(ZListProvidersRequestSchema)
  .output(ZListProvidersResponseSchema)
  .query(async ({ ctx }) => ({ ...(await listTenantProviders(ctx.deps, ctx.principal.tenantId)), next_cursor: null }));
