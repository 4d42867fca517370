import { auditContextOf, updateWebhookEndpoint } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { updateWebhookMeta, ZUpdateWebhookRequestSchema, ZUpdateWebhookResponseSchema } from "./update-webhook.types.ts";

export const updateWebhook = tenantProcedure
  .meta(updateWebhookMeta)
  .input(ZUpdateWebhookRequestSchema)
  .output(ZUpdateWebhookResponseSchema)
  .mutation(({ ctx, input }) => {
    const { webhook_id, ...patch } = input;
    return updateWebhookEndpoint(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), ctx.principal.tenantId, webhook_id, patch);
  });
