import { auditContextOf, setInstanceProviderSwitch } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { updateInstanceProviderMeta, ZUpdateInstanceProviderRequestSchema, ZUpdateInstanceProviderResponseSchema } from "./update-instance-provider.types.ts";

export const updateInstanceProvider = adminProcedure
  .meta(updateInstanceProviderMeta)
  .input(ZUpdateInstanceProviderRequestSchema)
  .output(ZUpdateInstanceProviderResponseSchema)
  .mutation(({ ctx, input }) => setInstanceProviderSwitch(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), input.provider, input.enabled));
