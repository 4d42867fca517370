import { auditContextOf, listConnectionsForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { listTenantConnectionsMeta, ZListTenantConnectionsRequestSchema, ZListTenantConnectionsResponseSchema } from "./list-tenant-connections.types.ts";

export const listTenantConnections = adminProcedure
  .meta(listTenantConnectionsMeta)
  .input(ZListTenantConnectionsRequestSchema)
  .output(ZListTenantConnectionsResponseSchema)
  .query(({ ctx, input }) => listConnectionsForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), input.tenant_id, input.id));
