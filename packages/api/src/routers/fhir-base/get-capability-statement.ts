import { capabilityStatement } from "@svc/core";
import { publicProcedure } from "../../trpc.ts";
import { answerAsFhir, fhirBaseSettings } from "./fhir-answer.ts";
import {
  getCapabilityStatementMeta,
  ZGetCapabilityStatementRequestSchema,
  ZGetCapabilityStatementResponseSchema,
} from "./get-capability-statement.types.ts";

export const getCapabilityStatement = publicProcedure
  .meta(getCapabilityStatementMeta)
  .input(ZGetCapabilityStatementRequestSchema)
  .output(ZGetCapabilityStatementResponseSchema)
  .query(({ ctx }) => {
    answerAsFhir(ctx);
    ctx.response.headers["Access-Control-Allow-Origin"] = "*";
    return capabilityStatement(fhirBaseSettings(ctx));
  });
