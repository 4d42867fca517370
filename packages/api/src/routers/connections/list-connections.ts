import { listConnections as listConnectionsService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { listConnectionsMeta, ZListConnectionsRequestSchema, ZListConnectionsResponseSchema } from "./list-connections.types.ts";

export const listConnections = tenantProcedure
  .meta(listConnectionsMeta)
  .input(ZListConnectionsRequestSchema)
  .output(ZListConnectionsResponseSchema)
  .query(({ ctx, input }) => listConnectionsService(ctx.deps, ctx.principal.tenantId, input.id));
