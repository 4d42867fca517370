import { runIdempotent, type Principal } from "@svc/core";
import type { Prisma } from "@svc/db";
import type { AuthedContext } from "./context.ts";

/**
 * Runs a procedure's work under the Idempotency-Key conventions and sets the answer's
 * status and the Idempotent-Replayed header. Used by every route the spec names.
 */
export async function idempotent<T extends Prisma.InputJsonValue>(
  ctx: AuthedContext<Extract<Principal, { kind: "tenant" | "user" }>>,
  operation: string,
  request: unknown,
  work: () => Promise<{ status: number; body: T; userId: string | null }>,
): Promise<T> {
  const principal = ctx.principal;
  const scope = principal.kind === "tenant" ? `tenant:${principal.tenantId}` : `user:${principal.userId}`;
  const result = await runIdempotent(
    ctx.deps.db,
    { tenantId: principal.tenantId, scope, operation, key: ctx.idempotencyKey, request },
    work,
  );
  ctx.response.status = result.status;
  if (result.replayed) ctx.response.headers["Idempotent-Replayed"] = "true";
  return result.body;
}
