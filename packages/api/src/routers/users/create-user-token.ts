import { mintUserToken } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import {
  createUserTokenMeta,
  ZCreateUserTokenRequestSchema,
  ZCreateUserTokenResponseSchema,
} from "./create-user-token.types.ts";

export const createUserToken = tenantProcedure
  .meta(createUserTokenMeta)
  .input(ZCreateUserTokenRequestSchema)
  .output(ZCreateUserTokenResponseSchema)
  .mutation(async ({ ctx, input }) => {
    ctx.response.status = 201;
    ctx.response.headers["Cache-Control"] = "no-store";
    const { id, ...request } = input;
    return mintUserToken(ctx.deps.db, ctx.principal.tenantId, id, request);
  });
