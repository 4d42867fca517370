import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZCursor, ZLimit, ZPage } from "../../schemas/common.ts";
import { ZUser } from "./user.schema.ts";

export const listUsersMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users",
    tags: ["users"],
    summary: "List users",
    description: "The tenant's active users, oldest first.",
    errorResponses: { 400: "Invalid limit or cursor", 401: "Missing, wrong or expired secret", 403: "Not a tenant API key" },
  },
};

export const ZListUsersRequestSchema = z.object({ cursor: ZCursor, limit: ZLimit });

export const ZListUsersResponseSchema = ZPage(ZUser);
