import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { TENANT_NAME_MAX_LENGTH } from "@svc/core";
import type { SvcMeta } from "../../trpc.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";

export const createTenantMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "POST",
    path: "/v1/admin/tenants",
    tags: ["admin"],
    summary: "Create a tenant",
    description:
      "Creates a tenant with its first API key, shown this once (only its hash is stored). Location points at the tenant's admin routes. Recorded as audit `tenant.create` in the instance's log and the new tenant's, in the same transaction.",
    responseHeaders: z.object({
      "Cache-Control": z.literal("no-store"),
      Location: z.string().describe("/v1/admin/tenants/{tenant_id} of the new tenant."),
    }),
    errorResponses: { 400: `Invalid body: name missing, empty or longer than ${TENANT_NAME_MAX_LENGTH} characters`, ...ZAdminErrors },
  },
  successStatus: 201,
};

export const ZCreateTenantRequestSchema = z.strictObject({
  name: z.string().trim().min(1).max(TENANT_NAME_MAX_LENGTH).describe(`The tenant's name, 1 to ${TENANT_NAME_MAX_LENGTH} characters (trimmed).`),
});

export const ZCreateTenantResponseSchema = z
  .object({
    tenant_id: z.uuid(),
    name: z.string(),
    api_key: z.string().describe("The tenant API key (`svc_sk_…`): shown once, store it now."),
  })
  .describe("The new tenant and its first API key.");
