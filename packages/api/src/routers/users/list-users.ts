import { listUsers as listUsersService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { listUsersMeta, ZListUsersRequestSchema, ZListUsersResponseSchema } from "./list-users.types.ts";

export const listUsers = tenantProcedure
  .meta(listUsersMeta)
  .input(ZListUsersRequestSchema)
  .output(ZListUsersResponseSchema)
  .query(({ ctx, input }) => listUsersService(ctx.deps.db, ctx.principal.tenantId, input));
