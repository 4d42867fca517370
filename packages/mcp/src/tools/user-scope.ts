import type { ApiContext } from "@svc/api";
import { AppError } from "@svc/core";
import { z } from "zod";
import type { McpRequestContext } from "../tool-definition.ts";

export const ZUserIdArgument = z
  .uuid()
  .optional()
  .describe("The user whose data to read (uuid, see list_users). Required with a tenant API key; with a user token leave it out (or pass the token's own user).");

/** The user a per-user tool reads: a tenant key names it; a user token reads its own user. */
export function userIdFor(ctx: McpRequestContext, userId: unknown): string {
  const principal = ctx.api.principal;
  if (typeof userId === "string") return userId;
  if (principal.kind === "user") return principal.userId;
  throw new AppError("bad_request", "user_id is required with a tenant API key.");
}

/**
 * The context to run a tenant-key read of one user (time tags, connections) for this caller.
 * The spec opens those reads over MCP to a user token with scope read, for its own user
 * only; REST keeps them tenant-key routes. /mcp checked the scope; here the user is checked
 * and the procedure then runs with the token's tenant's authority.
 */
export function contextForUserRead(ctx: McpRequestContext, userId: string): ApiContext {
  const principal = ctx.api.principal;
  if (principal.kind === "tenant") return ctx.api;
  if (userId !== principal.userId) throw new AppError("not_found", "No such user.");
  return { ...ctx.api, principal: { kind: "tenant", tenantId: principal.tenantId, keyId: principal.tokenId } };
}
