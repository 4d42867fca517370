import { authenticate, bearerSecret, requirePrincipalKind, requireReaderPrincipal, type PrincipalKind, type TokenScope } from "@svc/core";
import type { ApiContext } from "../context.ts";
import { publicProcedure } from "../trpc.ts";

/**
 * The caller's principal: the one the host resolved (and counted against its rate limit),
 * or the bearer secret's (401 when bad), counted here (429 above the limit).
 */
async function principalOf(ctx: ApiContext) {
  if (ctx.principal) return ctx.principal;
  const principal = await authenticate(ctx.deps.db, bearerSecret(ctx.authorization));
  await ctx.deps.rateLimits.consume(principal);
  return principal;
}

/** A procedure that takes one kind of secret: 401 for a bad secret, 403 for another kind. */
function procedureFor<K extends PrincipalKind>(kind: K) {
  return publicProcedure.use(async ({ ctx, next }) => {
    const principal = await principalOf(ctx);
    return next({ ctx: { principal: requirePrincipalKind(principal, kind) } });
  });
}

export const tenantProcedure = procedureFor("tenant");
export const userProcedure = procedureFor("user");
export const adminProcedure = procedureFor("admin");

/**
 * Routes of one user's records: a tenant key, or a user token (the route checks with the
 * user id that it is the token's own user and has `scope`).
 */
function tenantOrUserProcedure(scope: TokenScope) {
  return publicProcedure.use(async ({ ctx, next }) => {
    const principal = await principalOf(ctx);
    return next({ ctx: { principal: requireReaderPrincipal(principal, scope) } });
  });
}

/** Read routes of a user's records: a tenant key, or the user's own token with scope read. */
export const readerProcedure = tenantOrUserProcedure("read");
/** Upload routes of a user's records (self reports): a tenant key, or the user's own token with scope upload. */
export const uploaderProcedure = tenantOrUserProcedure("upload");
