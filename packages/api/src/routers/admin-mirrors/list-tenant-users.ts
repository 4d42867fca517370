import { auditContextOf, listUsersForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { listTenantUsersMeta, ZListTenantUsersRequestSchema, ZListTenantUsersResponseSchema } from "./list-tenant-users.types.ts";

export const listTenantUsers = adminProcedure
  .meta(listTenantUsersMeta)
  .input(ZListTenantUsersRequestSchema)
  .output(ZListTenantUsersResponseSchema)
  .query(({ ctx, input }) => {
    const { tenant_id, external_ref, external_ref_prefix, ...page } = input;
    return listUsersForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), tenant_id, page, {
      externalRef: external_ref,
      externalRefPrefix: external_ref_prefix,
    });
  });
