import { disconnectConnection as disconnectConnectionService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { disconnectConnectionMeta, ZDisconnectConnectionRequestSchema, ZDisconnectConnectionResponseSchema } from "./disconnect-connection.types.ts";

export const disconnectConnection = tenantProcedure
  .meta(disconnectConnectionMeta)
  .input(ZDisconnectConnectionRequestSchema)
  .output(ZDisconnectConnectionResponseSchema)
  .mutation(async ({ ctx, input }) => {
    const deleteData = input.delete_data === "true";
    const job = await disconnectConnectionService(ctx.deps, ctx.principal.tenantId, input.id, input.provider, deleteData);
    ctx.response.status = job ? 202 : 204;
    return job ?? undefined;
  });
