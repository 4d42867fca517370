import { auditContextOf, deleteWebhookEndpoint } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { deleteWebhookMeta, ZDeleteWebhookRequestSchema, ZDeleteWebhookResponseSchema } from "./delete-webhook.types.ts";

export const deleteWebhook = tenantProcedure
  .meta(deleteWebhookMeta)
  .input(ZDeleteWebhookRequestSchema)
  .output(ZDeleteWebhookResponseSchema)
  .mutation(async ({ ctx, input }) => {
    await deleteWebhookEndpoint(ctx.deps.db, auditContextOf(ctx.principal, ctx.requestId), ctx.principal.tenantId, input.webhook_id);
    ctx.response.status = 204;
  });
