import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZDateTime, ZId } from "../../schemas/common.ts";
import { ZAdminErrors } from "../admin-providers/admin-provider.schema.ts";
import { MIRROR_NOTE, ZTenantPath } from "./admin-mirror.schema.ts";

export const listTenantSampleTypesMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/admin/tenants/{tenant_id}/users/{id}/sample-types",
    tags: ["admin"],
    summary: "List the quantity types a tenant user has samples of",
    description: `Each quantity type the user has samples of, by name, with its storage unit, the start of the first and last sample and the providers they came from: no health values (read them with the samples mirror). One page: next_cursor is always null. ${MIRROR_NOTE} Audit action \`sample_types.read\`.`,
    errorResponses: {
      400: "tenant_id or id is not a uuid",
      ...ZAdminErrors,
      404: "No such tenant, or no such user of the tenant (or the user is being deleted)",
    },
  },
};

export const ZListTenantSampleTypesRequestSchema = z.object({ ...ZTenantPath, id: ZId("user") });

export const ZSampleType = z
  .object({
    type: z.string().describe("The quantity type's name, as the samples routes take it."),
    unit: z.string().nullable().describe("The catalog's storage unit of the type; null for a type outside the catalog."),
    first_start: ZDateTime.describe("Start of the user's first sample of the type."),
    last_start: ZDateTime.describe("Start of the user's last sample of the type."),
    providers: z.array(z.string()).describe("Slugs of the providers the samples came from, sorted."),
  })
  .describe("A quantity type the user has samples of; never a value.");

export const ZListTenantSampleTypesResponseSchema = z.object({
  data: z.array(ZSampleType),
  next_cursor: z.null().describe("Always null: every type fits in one page."),
});
