import { getUser as getUserService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { getUserMeta, ZGetUserRequestSchema, ZGetUserResponseSchema } from "./get-user.types.ts";

export const getUser = tenantProcedure
  .meta(getUserMeta)
  .input(ZGetUserRequestSchema)
  .output(ZGetUserResponseSchema)
  .query(({ ctx, input }) => getUserService(ctx.deps.db, ctx.principal.tenantId, input.id));
