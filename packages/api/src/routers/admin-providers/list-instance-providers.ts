import { listInstanceProviders as readInstanceProviders } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { listInstanceProvidersMeta, ZListInstanceProvidersRequestSchema, ZListInstanceProvidersResponseSchema } from "./list-instance-providers.types.ts";

export const listInstanceProviders = adminProcedure
  .meta(listInstanceProvidersMeta)
  .input(ZListInstanceProvidersRequestSchema)
  .output(ZListInstanceProvidersResponseSchema)
  .query(async ({ ctx }) => ({ ...(await readInstanceProviders(ctx.deps)), next_cursor: null }));
