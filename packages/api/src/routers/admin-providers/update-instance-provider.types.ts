import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZAdminErrors, ZInstanceProvider, ZInstanceProviderPath } from "./admin-provider.schema.ts";

export const updateInstanceProviderMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "PATCH",
    path: "/v1/admin/providers/{provider}",
    tags: ["admin"],
    summary: "Switch an OAuth or push provider on or off for the whole instance",
    description:
      "Off, the provider's instance status is `off`: it no longer runs with the instance's keys, so tenants without their own keys no longer see it in GET /v1/providers and their queued pulls end cancelled; tenants with their own keys keep it. Connections, keys and data are kept. Device providers have no instance switch (409): switch them per tenant.",
    errorResponses: { 400: "enabled missing", ...ZAdminErrors, 404: "A provider unknown to this build", 409: "A device provider" },
  },
};

export const ZUpdateInstanceProviderRequestSchema = z.strictObject({
  ...ZInstanceProviderPath,
  enabled: z.boolean().describe("false switches the provider off for every tenant; true on again."),
});

export const ZUpdateInstanceProviderResponseSchema = ZInstanceProvider;
