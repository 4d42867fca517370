import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZAdminErrors, ZInstanceProvider, ZInstanceProviderPath } from "./admin-provider.schema.ts";

export const getInstanceProviderMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/providers/{provider}",
    tags: ["admin"],
    summary: "Read the instance's configuration of a provider",
    description: "Status, switch, where the keys come from (environment or console), each key with its environment variable (values of secret keys never appear) and the addresses to register at the provider.",
    errorResponses: { ...ZAdminErrors, 404: "A provider unknown to this build" },
  },
};

export const ZGetInstanceProviderRequestSchema = z.object(ZInstanceProviderPath);

export const ZGetInstanceProviderResponseSchema = ZInstanceProvider;
