import { listSourceConsents } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { listConsentsMeta, ZListConsentsRequestSchema, ZListConsentsResponseSchema } from "./list-consents.types.ts";

export const listConsents = tenantProcedure
  .meta(listConsentsMeta)
  .input(ZListConsentsRequestSchema)
  .output(ZListConsentsResponseSchema)
  .query(({ ctx, input }) => listSourceConsents(ctx.deps.db, ctx.principal.tenantId, input.id));
