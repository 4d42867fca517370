import { getWebhookEndpoint } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { getWebhookMeta, ZGetWebhookRequestSchema, ZGetWebhookResponseSchema } from "./get-webhook.types.ts";

export const getWebhook = tenantProcedure
  .meta(getWebhookMeta)
  .input(ZGetWebhookRequestSchema)
  .output(ZGetWebhookResponseSchema)
  .query(({ ctx, input }) => getWebhookEndpoint(ctx.deps.db, ctx.principal.tenantId, input.webhook_id));
