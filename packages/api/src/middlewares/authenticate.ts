import { authenticate, bearerSecret, requirePrincipalKind, requireReaderPrincipal, type PrincipalKind } from "@svc/core";
import { publicProcedure } from "../trpc.ts";

/** A procedure that takes one kind of secret: 401 for a bad secret, 403 for another kind. */
function procedureFor<K extends PrincipalKind>(kind: K) {
  return publicProcedure.use(async ({ ctx, next }) => {
    const principal = await authenticate(ctx.deps.db, bearerSecret(ctx.authorization));
    return next({ ctx: { principal: requirePrincipalKind(principal, kind) } });
  });
}

export const tenantProcedure = procedureFor("tenant");
export const userProcedure = procedureFor("user");
export const adminProcedure = procedureFor("admin");

/** Read routes of a user's records: a tenant key, or the user's own token with scope read. */
export const readerProcedure = publicProcedure.use(async ({ ctx, next }) => {
  const principal = await authenticate(ctx.deps.db, bearerSecret(ctx.authorization));
  return next({ ctx: { principal: requireReaderPrincipal(principal) } });
});
