import { auditContextOf, putInstanceProviderKeys } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { setInstanceProviderKeysMeta, ZSetInstanceProviderKeysRequestSchema, ZSetInstanceProviderKeysResponseSchema } from "./set-instance-provider-keys.types.ts";

export const setInstanceProviderKeys = adminProcedure
  .meta(setInstanceProviderKeysMeta)
  .input(ZSetInstanceProviderKeysRequestSchema)
  .output(ZSetInstanceProviderKeysResponseSchema)
  .mutation(({ ctx, input }) => putInstanceProviderKeys(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), input.provider, input.keys));
