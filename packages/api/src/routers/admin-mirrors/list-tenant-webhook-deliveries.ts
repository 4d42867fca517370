import { auditContextOf, listWebhookDeliveriesForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import {
  listTenantWebhookDeliveriesMeta,
  ZListTenantWebhookDeliveriesRequestSchema,
  ZListTenantWebhookDeliveriesResponseSchema,
} from "./list-tenant-webhook-deliveries.types.ts";

export const listTenantWebhookDeliveries = adminProcedure
  .meta(listTenantWebhookDeliveriesMeta)
  .input(ZListTenantWebhookDeliveriesRequestSchema)
  .output(ZListTenantWebhookDeliveriesResponseSchema)
  .query(({ ctx, input }) => {
    const { tenant_id, webhook_id, ...query } = input;
    return listWebhookDeliveriesForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), tenant_id, webhook_id, query);
  });
