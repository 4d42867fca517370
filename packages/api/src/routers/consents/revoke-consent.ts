import { revokeSourceConsent } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { revokeConsentMeta, ZRevokeConsentRequestSchema, ZRevokeConsentResponseSchema } from "./revoke-consent.types.ts";

export const revokeConsent = tenantProcedure
  .meta(revokeConsentMeta)
  .input(ZRevokeConsentRequestSchema)
  .output(ZRevokeConsentResponseSchema)
  .mutation(async ({ ctx, input }) => {
    ctx.response.status = 202;
    return revokeSourceConsent(ctx.deps, ctx.principal.tenantId, input.id, input.provider, input.categories);
  });
