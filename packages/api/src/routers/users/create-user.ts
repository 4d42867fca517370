import { createUser as createUserService } from "@svc/core";
import { idempotent } from "../../idempotent.ts";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { createUserMeta, ZCreateUserRequestSchema, ZCreateUserResponseSchema } from "./create-user.types.ts";

export const createUser = tenantProcedure
  .meta(createUserMeta)
  .input(ZCreateUserRequestSchema)
  .output(ZCreateUserResponseSchema)
  .mutation(({ ctx, input }) =>
    idempotent(ctx, "POST /v1/users", input, async () => {
      const user = await createUserService(ctx.deps.db, ctx.principal.tenantId, input.external_ref);
      return { status: 201, body: { ...user }, userId: user.id };
    }),
  );
