import { z } from "zod";
import { SHARE_DETAILS } from "@svc/core";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZUserPath } from "../../schemas/records.ts";
import { ZDataCategory } from "../../schemas/data-category.ts";
import { ZShare } from "./share.schema.ts";

export const createShareMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "POST",
    path: "/v1/users/{id}/shares",
    tags: ["shares"],
    summary: "Create a share link",
    description:
      "Makes a SMART Health Link to the user's records of the categories in the window [start, end): a FHIR R4 Bundle of Observations (as the FHIR Observation search serves them, merged view; with `detail` `daily`, the default, frequent samples such as heart rate and steps as one Observation per local day), compressed and encrypted (JWE, zip DEF, A256GCM) with a fresh random key that only the link carries. The answer shows `link` (the viewer page URL) and `shlink` (the bare `shlink:/…`) once; the server keeps neither the key nor the passcode (a salted hash). A recipient POSTs `{recipient, passcode}` to the link's manifest URL to get the file. Sends share.created. Send Idempotency-Key to make retries safe: a replay answers the share with link and shlink null.",
    requestHeaders: z.object({
      "Idempotency-Key": z.string().min(1).max(255).optional().describe("1 to 255 characters; replay window 24 hours."),
    }),
    errorResponses: {
      400: "Invalid body (label, unknown category, end not after start, window over 366 days, expires_at not in the next 365 days, passcode length) or Idempotency-Key",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant, or the user is being deleted",
      409: "The same Idempotency-Key is still being processed",
      413: "The share would hold more than 25000 observations or 16 MiB: choose a shorter window, fewer categories or daily detail",
      422: "Idempotency-Key reused with a different request",
    },
  },
  successStatus: 201,
};

export const ZCreateShareRequestSchema = z.strictObject({
  ...ZUserPath,
  label: z.string().trim().min(1).max(80).describe("A short title shown to the recipient, 1 to 80 characters (SMART Health Links label)."),
  categories: z.array(ZDataCategory).min(1).max(20).describe("The data categories to share, at least one."),
  start: z.iso.datetime({ offset: true }).describe("Start of the window (inclusive): an RFC 3339 time."),
  end: z.iso.datetime({ offset: true }).describe("End of the window (exclusive), after start, at most 366 days later."),
  expires_at: z.iso.datetime({ offset: true }).describe("When the link stops working: in the future, at most 365 days ahead."),
  passcode: z.string().min(6).max(64).optional().describe("A passcode the recipient must enter, 6 to 64 characters; never stored in clear, never shown again."),
  detail: z
    .enum(SHARE_DETAILS)
    .default("daily")
    .describe(
      "`daily` (default): counts (steps, energy, distance...) and readings (heart rate, SpO2...) as one Observation per local day (the day's sum, or its average with minimum and maximum), every other record as stored, ECG recordings without voltages. `full`: every sample and every ECG voltage.",
    ),
});

export const ZCreateShareResponseSchema = ZShare.extend({
  link: z
    .string()
    .nullable()
    .describe("The viewer URL `{public_url}/share#shlink:/…` to hand to the recipient; shown once (null on an idempotent replay)."),
  shlink: z.string().nullable().describe("The bare SMART Health Link `shlink:/…` for SMART Health Links apps; shown once (null on an idempotent replay)."),
});
