import { requireReadableUser, searchObservations as searchObservationsService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { searchObservationsMeta, ZSearchObservationsRequestSchema, ZSearchObservationsResponseSchema } from "./search-observations.types.ts";

export const searchObservations = tenantProcedure
  .meta(searchObservationsMeta)
  .input(ZSearchObservationsRequestSchema)
  .output(ZSearchObservationsResponseSchema)
  .query(async ({ ctx, input }) => {
    const user = await requireReadableUser(ctx.deps.db, ctx.principal, input.id);
    const { instance } = ctx.deps;
    ctx.response.headers["Content-Type"] = "application/fhir+json; charset=utf-8";
    return searchObservationsService(ctx.deps.db, user.id, input, {
      codeSystemBase: instance.fhirCodeSystemBase(),
      searchUrl: `${instance.publicUrl()}/v1/users/${user.id}/fhir/Observation`,
    });
  });
