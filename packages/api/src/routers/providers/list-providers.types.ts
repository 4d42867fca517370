import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";

export const listProvidersMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/providers",
    tags: ["providers"],
    summary: "List the providers available to the tenant",
    description:
      "The providers of this build the tenant may use, in a fixed order: device providers, and OAuth and push providers that run for the tenant (its own keys, or the instance's). A provider an instance admin switched off for the tenant is left out. One page: next_cursor is always null.",
    errorResponses: { 401: "Missing, wrong or expired secret", 403: "Not a tenant API key" },
  },
};

export const ZListProvidersRequestSchema = z.object({});

export const ZProvider = z.object({
  slug: z.string().describe("The provider's name in paths, records (`provider`) and events, e.g. `apple_health`."),
  name: z.string().describe("Display name."),
  kind: z
    .enum(["oauth", "push", "device"])
    .describe("`oauth`: svc pulls with the user's grant; `push`: the provider sends data; `device`: the user's app or device uploads."),
  data_types: z.array(z.string()).describe("The catalog groups of the records the provider brings, e.g. `activity`, `sleep`."),
});

export const ZListProvidersResponseSchema = z.object({
  data: z.array(ZProvider),
  next_cursor: z.null().describe("Always null: every provider fits in one page."),
});
