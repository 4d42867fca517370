import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZId } from "../../schemas/common.ts";
import { ZUser } from "./user.schema.ts";

export const getUserMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}",
    tags: ["users"],
    summary: "Get a user",
    errorResponses: {
      400: "id is not a uuid",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant, or the user is being deleted",
    },
  },
};

export const ZGetUserRequestSchema = z.object({ id: ZId("user") });

export const ZGetUserResponseSchema = ZUser;
