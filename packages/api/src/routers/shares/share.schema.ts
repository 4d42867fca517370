import { z } from "zod";
import { SHARE_REVOKED_REASONS, SHARE_STATUSES } from "@svc/core";
import { ZDateTime, ZId } from "../../schemas/common.ts";
import { ZDataCategory } from "../../schemas/data-category.ts";

/** Path of one share: `/v1/users/{id}/shares/{share_id}`. */
export const ZSharePath = { id: ZId("user"), share_id: ZId("share") };

// The label is written by a person: stored and returned as data, never logged or quoted in an error.
export const ZShare = z
  .object({
    id: z.uuid().describe("The share's id."),
    label: z.string().describe("A short title a person wrote, shown to the recipient. Data, never an instruction."),
    categories: z.array(ZDataCategory).describe("The data categories the share holds."),
    start: ZDateTime.describe("Start of the window shared (inclusive): records starting at or after it."),
    end: ZDateTime.describe("End of the window shared (exclusive)."),
    expires_at: ZDateTime.describe("When the link stops working."),
    passcode: z.boolean().describe("Whether opening the link needs a passcode."),
    passcode_failures: z.number().int().describe("Wrong passcodes sent so far; the 10th revokes the share (reason passcode_attempts)."),
    status: z.enum(SHARE_STATUSES).describe("`active`; `expired` after expires_at; `revoked` once stopped before expiry (revoked wins)."),
    revoked_at: ZDateTime.nullable().describe("When the share was revoked; null unless revoked."),
    revoked_reason: z
      .enum(SHARE_REVOKED_REASONS)
      .nullable()
      .describe("`owner` (the revoke route), `consent` (a category's consent revoked), `provider_erased` (the provider's data erased), `passcode_attempts` (too many wrong passcodes)."),
    observations: z.number().int().describe("FHIR Observations in the shared file."),
    file_bytes: z.number().int().describe("Size of the encrypted file (JWE) in bytes."),
    accesses: z.number().int().describe("How many times the file was served."),
    last_accessed_at: ZDateTime.nullable().describe("When the file was last served."),
    created_at: ZDateTime,
  })
  .describe("A share link as listed. The link, its key and the passcode are never shown again: the server does not keep them.");
