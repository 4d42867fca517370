import { listWebhookEndpoints } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { listWebhooksMeta, ZListWebhooksRequestSchema, ZListWebhooksResponseSchema } from "./list-webhooks.types.ts";

export const listWebhooks = tenantProcedure
  .meta(listWebhooksMeta)
  .input(ZListWebhooksRequestSchema)
  .output(ZListWebhooksResponseSchema)
  .query(({ ctx, input }) => listWebhookEndpoints(ctx.deps.db, ctx.principal.tenantId, input));
