import { auditContextOf, createWebhookEndpoint } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { createWebhookMeta, ZCreateWebhookRequestSchema, ZCreateWebhookResponseSchema } from "./create-webhook.types.ts";

export const createWebhook = tenantProcedure
  .meta(createWebhookMeta)
  .input(ZCreateWebhookRequestSchema)
  .output(ZCreateWebhookResponseSchema)
  .mutation(async ({ ctx, input }) => {
    const created = await createWebhookEndpoint(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), ctx.principal.tenantId, input);
    ctx.response.status = 201;
    ctx.response.headers["Cache-Control"] = "no-store";
    return created;
  });
