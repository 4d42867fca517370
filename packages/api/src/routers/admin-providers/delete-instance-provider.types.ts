import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZAdminErrors, ZInstanceProvider, ZInstanceProviderPath } from "./admin-provider.schema.ts";

export const deleteInstanceProviderMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "DELETE",
    path: "/v1/admin/providers/{provider}",
    tags: ["admin"],
    summary: "Forget the keys and switch saved from the console",
    description:
      "Deletes the saved keys and the instance switch; answers the provider as it runs afterwards. Environment variables are untouched; connections and data are kept.",
    errorResponses: { ...ZAdminErrors, 404: "A provider unknown to this build, or nothing saved for it" },
  },
};

export const ZDeleteInstanceProviderRequestSchema = z.object(ZInstanceProviderPath);

export const ZDeleteInstanceProviderResponseSchema = ZInstanceProvider;
