import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZUser } from "./user.schema.ts";

export const createUserMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "POST",
    path: "/v1/users",
    tags: ["users"],
    summary: "Create a user",
    description:
      "Creates an end user. Send Idempotency-Key to make retries safe: the same key and body within 24 hours replays the first answer with Idempotent-Replayed: true.",
    requestHeaders: z.object({
      "Idempotency-Key": z.string().min(1).max(255).optional().describe("1 to 255 characters; replay window 24 hours."),
    }),
    errorResponses: {
      400: "Invalid body or Idempotency-Key",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      409: "external_ref already used in the tenant, or the same Idempotency-Key is still being processed",
      422: "Idempotency-Key reused with a different request",
    },
  },
  successStatus: 201,
};

export const ZCreateUserRequestSchema = z.strictObject({
  external_ref: z.string().min(1).max(255).optional().describe("The tenant's own identifier; unique in the tenant."),
});

export const ZCreateUserResponseSchema = ZUser;
