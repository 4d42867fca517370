import type { ApiContext } from "../../context.ts";

/** The kick-off's URL as the client sent it (the manifest's `request`): known for REST calls of /v1/fhir only. */
export function kickOffUrl(ctx: ApiContext): string | undefined {
  return ctx.requestPath?.startsWith("/v1/fhir/") ? `${ctx.deps.instance.publicUrl()}${ctx.requestPath}` : undefined;
}
