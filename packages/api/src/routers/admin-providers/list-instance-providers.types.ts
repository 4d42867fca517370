import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZAdminErrors, ZInstanceProvider } from "./admin-provider.schema.ts";

export const listInstanceProvidersMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/providers",
    tags: ["admin"],
    summary: "List the instance's providers",
    description:
      "Every provider of this build, in the registry's order, with its instance status, switch and keys (values of secret keys never appear). Device providers are active and take no keys. One page: next_cursor is always null.",
    errorResponses: { ...ZAdminErrors },
  },
};

export const ZListInstanceProvidersRequestSchema = z.object({});

export const ZListInstanceProvidersResponseSchema = z.object({
  data: z.array(ZInstanceProvider),
  next_cursor: z.null().describe("Always null: every provider fits in one page."),
});
