import { requestUserDeletion } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { deleteUserMeta, ZDeleteUserRequestSchema, ZDeleteUserResponseSchema } from "./delete-user.types.ts";

export const deleteUser = tenantProcedure
  .meta(deleteUserMeta)
  .input(ZDeleteUserRequestSchema)
  .output(ZDeleteUserResponseSchema)
  .mutation(async ({ ctx, input }) => {
    ctx.response.status = 202;
    return requestUserDeletion(ctx.deps, ctx.principal.tenantId, input.id);
  });
