import { auditContextOf, deleteInstanceProviderConfig } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { deleteInstanceProviderMeta, ZDeleteInstanceProviderRequestSchema, ZDeleteInstanceProviderResponseSchema } from "./delete-instance-provider.types.ts";

export const deleteInstanceProvider = adminProcedure
  .meta(deleteInstanceProviderMeta)
  .input(ZDeleteInstanceProviderRequestSchema)
  .output(ZDeleteInstanceProviderResponseSchema)
  .mutation(({ ctx, input }) => deleteInstanceProviderConfig(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), input.provider));
