import { auditContextOf, listSharesForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { listTenantSharesMeta, ZListTenantSharesRequestSchema, ZListTenantSharesResponseSchema } from "./list-tenant-shares.types.ts";

export const listTenantShares = adminProcedure
  .meta(listTenantSharesMeta)
  .input(ZListTenantSharesRequestSchema)
  .output(ZListTenantSharesResponseSchema)
  .query(({ ctx, input }) => {
    const { tenant_id, id, ...page } = input;
    return listSharesForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), tenant_id, id, page);
  });
