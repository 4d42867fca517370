import { AppError } from "../platform/index.ts";
import type { CoreDeps } from "../deps.ts";
import type { ReaderPrincipal } from "../identity/index.ts";
import { countRejectedRecordsOfRawObject, listRejectedRecordsOfRawObject } from "../records/index.ts";
import { findUploadOfTenant, type RawObjectRow } from "./raw-object-repository.ts";
import { WRITTEN_TABLES, type WrittenTable } from "./record-bundle.ts";

/** The rejected records an upload's status lists; `rejected.total` counts them all. */
export const UPLOAD_REJECTIONS_LISTED = 100;

export interface UploadRejection {
  line: number | null;
  locator: string | null;
  record_kind: string;
  reason: string;
}

/** GET /v1/ingest/uploads/{upload_id}: where an upload is, and what its ETL wrote and refused. Never a health value. */
export interface UploadStatus {
  upload_id: string;
  user_id: string;
  provider: string;
  format: string;
  status: RawObjectRow["status"];
  byte_size: number;
  received_at: string;
  processed_at: string | null;
  records: Record<WrittenTable, number>;
  skipped_without_consent: number;
  rejected: { total: number; first: UploadRejection[] };
  error: string | null;
}

/**
 * The status of an upload. A tenant key sees the uploads of every active user of its tenant;
 * a user token needs scope upload (403 without) and sees its own user's uploads. Any other id
 * (another user's, another tenant's, a pull's raw object, a user being deleted) is 404.
 */
export async function getUploadStatus(deps: Pick<CoreDeps, "db" | "providers">, principal: ReaderPrincipal, uploadId: string): Promise<UploadStatus> {
  if (principal.kind === "user" && !principal.scopes.includes("upload")) throw new AppError("forbidden", "This user token lacks scope upload.");
  const raw = await findUploadOfTenant(deps.db, {
    id: uploadId,
    tenantId: principal.tenantId,
    userId: principal.kind === "user" ? principal.userId : undefined,
    providers: deps.providers
      .all()
      .filter((provider) => provider.kind === "device")
      .map((provider) => provider.slug),
  });
  if (!raw) throw new AppError("not_found", "No such upload.");
  const first = await listRejectedRecordsOfRawObject(deps.db, raw.userId, raw.id, UPLOAD_REJECTIONS_LISTED);
  const total = first.length < UPLOAD_REJECTIONS_LISTED ? first.length : await countRejectedRecordsOfRawObject(deps.db, raw.userId, raw.id);
  const summary = summaryOf(raw.summary);
  return {
    upload_id: raw.id,
    user_id: raw.userId,
    provider: raw.provider,
    format: raw.format,
    status: raw.status,
    byte_size: Number(raw.byteSize),
    received_at: raw.receivedAt.toISOString(),
    processed_at: raw.processedAt?.toISOString() ?? null,
    records: summary.records,
    skipped_without_consent: summary.skipped,
    rejected: {
      total,
      first: first.map((r) => ({ line: r.line, locator: r.locator, record_kind: r.recordKind, reason: r.reason })),
    },
    error: raw.status === "failed" ? raw.error : null,
  };
}

/** The rows per table and the records skipped without consent the ETL wrote in the raw object's summary; zeros before it ran. */
function summaryOf(summary: RawObjectRow["summary"]): { records: Record<WrittenTable, number>; skipped: number } {
  const written = isObject(summary) && isObject(summary.records) ? summary.records : {};
  const records = Object.fromEntries(WRITTEN_TABLES.map((table) => [table, countOf(written[table])])) as Record<WrittenTable, number>;
  return { records, skipped: isObject(summary) ? countOf(summary.skipped_without_consent) : 0 };
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

const countOf = (value: unknown): number => (typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : 0);
