import { createHash } from "node:crypto";
import type { Prisma } from "@svc/db";
import { AppError, type DbClient } from "../platform/index.ts";
import {
  claimIdempotencyKey,
  completeIdempotencyRecord,
  deleteIdempotencyRecord,
  findIdempotencyRecord,
  type IdempotencyIdentity,
} from "./idempotency-repository.ts";

export const IDEMPOTENCY_REPLAY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** A first call still marked running after this long is taken to have died. */
const ABANDONED_AFTER_MS = 2 * 60 * 1000;

export interface IdempotentCall {
  tenantId: string;
  /** Who called: `tenant:<id>` or `user:<id>`, so two callers never share a key. */
  scope: string;
  /** Method and route template, e.g. `POST /v1/users`. */
  operation: string;
  /** The Idempotency-Key header, when sent. */
  key: string | undefined;
  /** Everything that makes the request this request: path parameters and body. */
  request: unknown;
}

export interface IdempotentResult<T> {
  status: number;
  body: T;
  replayed: boolean;
}

/**
 * Runs `work` at most once per Idempotency-Key within 24 hours. A retry with the same key
 * and request gets the first answer (replayed); another request with that key is 422; a
 * retry while the first call runs is 409. A call that fails stores nothing, so it can be
 * retried with the same key.
 */
export async function runIdempotent<T extends Prisma.InputJsonValue>(
  db: DbClient,
  call: IdempotentCall,
  work: () => Promise<{ status: number; body: T; userId: string | null }>,
  now = new Date(),
): Promise<IdempotentResult<T>> {
  if (call.key === undefined) {
    const { status, body } = await work();
    return { status, body, replayed: false };
  }
  if (call.key.length < 1 || call.key.length > 255) {
    throw new AppError("bad_request", "Idempotency-Key must be 1 to 255 characters.");
  }
  const identity: IdempotencyIdentity = { tenantId: call.tenantId, scope: call.scope, operation: call.operation, key: call.key };
  const requestHash = hashIdempotentRequest(call.request);
  const expiresAt = new Date(now.getTime() + IDEMPOTENCY_REPLAY_WINDOW_MS);

  if (!(await claimIdempotencyKey(db, { ...identity, requestHash, expiresAt }))) {
    const existing = await findIdempotencyRecord(db, identity);
    const abandoned =
      existing?.state === "running" && now.getTime() - existing.createdAt.getTime() > ABANDONED_AFTER_MS;
    if (existing && existing.expiresAt > now && !abandoned) {
      if (existing.requestHash !== requestHash) {
        throw new AppError("unprocessable", "This Idempotency-Key was already used with a different request.");
      }
      if (existing.state === "running") {
        throw new AppError("conflict", "A request with this Idempotency-Key is still being processed.");
      }
      return { status: existing.responseStatus ?? 200, body: existing.responseBody as T, replayed: true };
    }
    // Expired or abandoned: forget it and take the key afresh.
    if (existing) await deleteIdempotencyRecord(db, existing.id);
    if (!(await claimIdempotencyKey(db, { ...identity, requestHash, expiresAt }))) {
      throw new AppError("conflict", "A request with this Idempotency-Key is still being processed.");
    }
  }

  try {
    const result = await work();
    await completeIdempotencyRecord(db, identity, result);
    return { status: result.status, body: result.body, replayed: false };
  } catch (error) {
    const record = await findIdempotencyRecord(db, identity);
    if (record) await deleteIdempotencyRecord(db, record.id);
    throw error;
  }
}

/** The hash that tells two requests with one key apart. */
export function hashIdempotentRequest(request: unknown): string {
  return createHash("sha256").update(stableJson(request)).digest("hex");
}

/** JSON with object keys sorted, so the same request always hashes the same. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}
