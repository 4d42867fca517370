import { auditContextOf, rotateWebhookSecret as rotateWebhookSecretService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import {
  rotateWebhookSecretMeta,
  ZRotateWebhookSecretRequestSchema,
  ZRotateWebhookSecretResponseSchema,
} from "./rotate-webhook-secret.types.ts";

export const rotateWebhookSecret = tenantProcedure
  .meta(rotateWebhookSecretMeta)
  .input(ZRotateWebhookSecretRequestSchema)
  .output(ZRotateWebhookSecretResponseSchema)
  .mutation(async ({ ctx, input }) => {
    const rotated = await rotateWebhookSecretService(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), ctx.principal.tenantId, input.webhook_id);
    ctx.response.headers["Cache-Control"] = "no-store";
    return rotated;
  });
