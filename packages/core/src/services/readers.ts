import { AppError } from "../errors/app-error.ts";
import type { DbClient } from "../repositories/db-client.ts";
import type { UserRow } from "../repositories/user-repository.ts";
import type { Principal } from "./auth.ts";
import { requireActiveUser } from "./users.ts";

/** Who may read a user's records: a tenant key (any user of its tenant) or that user's own token. */
export type ReaderPrincipal = Extract<Principal, { kind: "tenant" | "user" }>;

/** 403 for an instance admin key: its reads go through the admin mirror routes. */
export function requireReaderPrincipal(principal: Principal): ReaderPrincipal {
  if (principal.kind === "admin") {
    throw new AppError("forbidden", "This route takes a tenant API key or a user token with scope read, not an instance admin key.");
  }
  return principal;
}

/**
 * The user whose records are read. A tenant key reads any active user of its tenant; a
 * user token needs scope `read` (403 without) and reads only its own user (any other id
 * is 404, as for a user of another tenant).
 */
export async function requireReadableUser(db: DbClient, principal: ReaderPrincipal, userId: string): Promise<UserRow> {
  if (principal.kind === "user") {
    if (!principal.scopes.includes("read")) throw new AppError("forbidden", "This user token lacks scope read.");
    if (principal.userId !== userId) throw new AppError("not_found", "No such user.");
  }
  return requireActiveUser(db, principal.tenantId, userId);
}
