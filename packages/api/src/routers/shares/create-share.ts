import { createShare as createShareService, type CreatedShare } from "@svc/core";
import { idempotent } from "../../idempotent.ts";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { createShareMeta, ZCreateShareRequestSchema, ZCreateShareResponseSchema } from "./create-share.types.ts";

export const createShare = tenantProcedure
  .meta(createShareMeta)
  .input(ZCreateShareRequestSchema)
  .output(ZCreateShareResponseSchema)
  .mutation(async ({ ctx, input }) => {
    const { id, ...share } = input;
    // The link carries the key: it is answered once and never stored, not even for a replay.
    // The passcode takes part in the request identity only as "present".
    let created: CreatedShare | undefined;
    const body = await idempotent(ctx, "POST /v1/users/{id}/shares", { ...input, passcode: input.passcode !== undefined }, async () => {
      created = await createShareService(ctx.deps, ctx.principal.tenantId, id, share);
      return { status: 201, body: { ...created.share }, userId: id };
    });
    return { ...body, link: created?.link ?? null, shlink: created?.shlink ?? null };
  });
