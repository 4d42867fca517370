import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZDateTime, ZId } from "../../schemas/common.ts";

export const createUserTokenMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "POST",
    path: "/v1/users/{id}/tokens",
    tags: ["users"],
    summary: "Mint a user token",
    description:
      "A token for one end user's app, shown once. ttl_seconds defaults to 3600 and is at most 86400; a token whose only scope is read may live up to 2592000. It stops at expires_at or when the user is deleted.",
    responseHeaders: z.object({ "Cache-Control": z.literal("no-store") }),
    errorResponses: {
      400: "Invalid scopes or ttl_seconds",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such active user in the tenant",
    },
  },
  successStatus: 201,
};

export const ZScope = z.enum(["upload", "connect", "read"]).describe("What a user token may do, for its own user: `read` the records, `upload` (the upload routes, self reports, an upload's status), `connect` (no route requires it yet).");

export const ZCreateUserTokenRequestSchema = z.strictObject({
  id: ZId("user"),
  scopes: z.array(ZScope).min(1).max(3).describe("What the token may do: upload, connect, read."),
  ttl_seconds: z
    .number()
    .int()
    .min(1)
    .describe("Lifetime in seconds: default 3600, at most 86400 (2592000 for a read-only token).")
    .optional(),
});

export const ZCreateUserTokenResponseSchema = z.object({
  token: z.string().describe("svc_ut_ + 43 characters; shown once, stored only as a hash."),
  expires_at: ZDateTime,
  scopes: z.array(ZScope),
});
