import { createTimeTag } from "@svc/core";
import { idempotent } from "../../idempotent.ts";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { createTagMeta, ZCreateTagRequestSchema, ZCreateTagResponseSchema } from "./create-tag.types.ts";

export const createTag = tenantProcedure
  .meta(createTagMeta)
  .input(ZCreateTagRequestSchema)
  .output(ZCreateTagResponseSchema)
  .mutation(({ ctx, input }) =>
    idempotent(ctx, "POST /v1/users/{id}/tags", input, async () => {
      const { id, ...tag } = input;
      const created = await createTimeTag(ctx.deps, ctx.principal.tenantId, id, tag);
      return { status: 201, body: { ...created }, userId: id };
    }),
  );
