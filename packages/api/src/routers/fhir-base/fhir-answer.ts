import type { FhirBaseSettings } from "@svc/core";
import type { ApiContext } from "../../context.ts";

/** The base's addresses: `{public_url}/v1/fhir`, and the instance's code systems. */
export function fhirBaseSettings(ctx: ApiContext): FhirBaseSettings {
  const { instance } = ctx.deps;
  return { baseUrl: `${instance.publicUrl()}/v1/fhir`, codeSystemBase: instance.fhirCodeSystemBase() };
}

/** Every answer of the base is application/fhir+json (errors too, for a client that asks for FHIR: apps/server). */
export function answerAsFhir(ctx: ApiContext): void {
  ctx.response.headers["Content-Type"] = "application/fhir+json; charset=utf-8";
}

/** Errors every read of the base may answer, worded once. */
export const fhirReadErrors = {
  401: "Missing, wrong or expired secret",
  403: "Not a tenant API key or a user token with scope read",
  406: "_format or Accept asks for a format other than JSON",
} as const;
