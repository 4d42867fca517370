import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZAdminErrors, ZInstanceProvider, ZInstanceProviderPath, ZKeysBody, ZReauthRequired } from "./admin-provider.schema.ts";

export const setInstanceProviderKeysMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "PUT",
    path: "/v1/admin/providers/{provider}/keys",
    tags: ["admin"],
    summary: "Save the instance's keys of a provider from the console",
    description:
      "Replaces every saved key (sealed with SVC_ENCRYPTION_KEY). Refused with 409 while environment variables configure the provider: they win as a whole. When the keys name another application (another CLIENT_ID, REGION or ENVIRONMENT), active connections made with the instance's keys move to needs_reauth (reason keys_changed, action reconnect), counted in reauth_required. Applies at once in this process and within 30 seconds in others.",
    errorResponses: {
      400: "A required key missing, or a key the provider does not take (named)",
      ...ZAdminErrors,
      404: "A provider unknown to this build",
      409: "The provider takes no keys (device or built-in), or the environment configures it",
      422: "The provider's own rules refuse the keys (the reason is in detail)",
    },
  },
};

export const ZSetInstanceProviderKeysRequestSchema = z.strictObject({ ...ZInstanceProviderPath, keys: ZKeysBody });

export const ZSetInstanceProviderKeysResponseSchema = ZInstanceProvider.extend({ reauth_required: ZReauthRequired });
