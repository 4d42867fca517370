import { z } from "zod";
import { DATA_CATEGORIES } from "@svc/core";
import { ZDateTime, ZId } from "../../schemas/common.ts";
import { ZDataCategory } from "../../schemas/data-category.ts";
import { ZGetDeletionResponseSchema } from "../deletions/get-deletion.types.ts";

/** Path of one source's consent: `/v1/users/{id}/consents/{provider}/...`. */
export const ZConsentPath = {
  id: ZId("user"),
  provider: z.string().min(1).max(64).describe("The source's provider slug, as GET /v1/providers lists it (`self_report` for self reports)."),
};

export const ZConsentCategories = z
  .array(ZDataCategory)
  .min(1)
  .max(DATA_CATEGORIES.length * 2)
  .describe("The categories, at least one; a category named twice counts once.");

export const ZSourceConsent = z
  .object({
    provider: z.string().describe("The source's provider slug."),
    categories: z
      .array(
        z.object({
          category: ZDataCategory,
          granted: z.boolean().describe("False once revoked: records of the category from this source are neither stored nor kept."),
          updated_at: ZDateTime.nullable().describe("When the consent last changed; null while it was never changed (granted by default)."),
        }),
      )
      .describe("Every category, in the catalog's order."),
  })
  .describe("A user's consent to the data categories of one source.");

export const ZConsentDeletionJob = ZGetDeletionResponseSchema.describe(
  "The deletion job removing the stored records of the revoked categories from the source; follow it at GET /v1/deletions/{job_id}.",
);
