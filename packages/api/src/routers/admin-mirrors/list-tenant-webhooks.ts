import { auditContextOf, listWebhooksForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { listTenantWebhooksMeta, ZListTenantWebhooksRequestSchema, ZListTenantWebhooksResponseSchema } from "./list-tenant-webhooks.types.ts";

export const listTenantWebhooks = adminProcedure
  .meta(listTenantWebhooksMeta)
  .input(ZListTenantWebhooksRequestSchema)
  .output(ZListTenantWebhooksResponseSchema)
  .query(({ ctx, input }) => {
    const { tenant_id, ...page } = input;
    return listWebhooksForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), tenant_id, page);
  });
