import { getInstanceProvider as readInstanceProvider } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { getInstanceProviderMeta, ZGetInstanceProviderRequestSchema, ZGetInstanceProviderResponseSchema } from "./get-instance-provider.types.ts";

export const getInstanceProvider = adminProcedure
  .meta(getInstanceProviderMeta)
  .input(ZGetInstanceProviderRequestSchema)
  .output(ZGetInstanceProviderResponseSchema)
  .query(({ ctx, input }) => readInstanceProvider(ctx.deps, input.provider));
