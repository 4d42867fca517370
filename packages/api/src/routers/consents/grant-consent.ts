import { grantSourceConsent } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { grantConsentMeta, ZGrantConsentRequestSchema, ZGrantConsentResponseSchema } from "./grant-consent.types.ts";

export const grantConsent = tenantProcedure
  .meta(grantConsentMeta)
  .input(ZGrantConsentRequestSchema)
  .output(ZGrantConsentResponseSchema)
  .mutation(({ ctx, input }) => grantSourceConsent(ctx.deps, ctx.principal.tenantId, input.id, input.provider, input.categories));
