import { createHash } from "node:crypto";
import type { CoreDeps } from "../deps.ts";
import {
  categoryOfRecordKind,
  emptyParsedRecords,
  findSampleTypesByExternalId,
  isSelfReportKind,
  type QuantitySampleRecord,
  SELF_REPORT_KIND_NAMES,
  SELF_REPORT_KINDS,
  type SelfReportKindName,
  selfReportType,
} from "../records/index.ts";
import { AppError, type DbClient, isTimeZone } from "../platform/index.ts";
import { erasureRunning, lockUserForUpload, requireProviderOnForTenant, type UserRow } from "../identity/index.ts";
import { listRevokedCategories } from "../sharing/index.ts";
import { insertDataWrittenEvent } from "./data-written.ts";
import { localDayRange } from "./local-days.ts";
import { noChanges, writeParsedRecords } from "./record-bundle.ts";

/** The provider (and source) of what a person reports about themselves. */
export const SELF_REPORT_PROVIDER = "self_report";

/** A report as the client sent it (its shape already checked). */
export type SelfReportInput = {
  id?: string | undefined;
  kind: string;
  value: number;
  start_at: string;
  end_at?: string | undefined;
  timezone?: string | undefined;
};

/** A stored report, as answered. */
export type SelfReport = {
  id: string;
  kind: SelfReportKindName;
  type: string;
  value: number;
  start_at: string;
  end_at: string;
  timezone: string | null;
};

export type SelfReportsAnswer = { reports: SelfReport[]; duplicate: boolean };

type CheckedReport = { id: string; kind: SelfReportKindName; value: number; start: Date; end: Date; timezone: string | null };

/**
 * Stores a person's reports about themselves as quantity samples `reported_<kind>` of the
 * provider self_report, in one transaction with one data.written event when anything was
 * new or changed. A report's id is its identity: sent again, it replaces the stored
 * report (value, times, zone). Without an id, the id comes from the user, kind, start_at
 * and end_at, so a resend is a duplicate. 403 while the provider is switched off for the
 * tenant, 400 naming the field (never the value) for a report off its scale, 404 for a
 * user whose deletion started, 409 while the user's self reports are being erased, when
 * the user revoked consent to them, or when an id belongs to a report of another kind;
 * nothing is kept then.
 */
export async function writeSelfReports({ db, jobs }: Pick<CoreDeps, "db" | "jobs">, user: UserRow, inputs: readonly SelfReportInput[]): Promise<SelfReportsAnswer> {
  await requireProviderOnForTenant(db, user.tenantId, SELF_REPORT_PROVIDER);
  const reports = checkSelfReports(user.id, inputs);
  return db.$transaction(async (tx) => {
    // Holds off a user deletion until this transaction ends.
    if ((await lockUserForUpload(tx, user.id)) !== "active") throw new AppError("not_found", "No such user.");
    if (await erasureRunning(tx, user.id, SELF_REPORT_PROVIDER)) {
      throw new AppError("conflict", "The user's self reports are being erased; new ones are refused until the erasure is done.");
    }
    await requireKeptKinds(tx, user.id, reports);
    // An answer listing the reports as stored must not come back when none would be (issue 10).
    if ((await listRevokedCategories(tx, user.id, SELF_REPORT_PROVIDER)).includes(categoryOfRecordKind("self_report"))) {
      throw new AppError("conflict", "The user revoked consent to self reports (category reported of self_report); grant it again to store them.");
    }

    const parsed = { ...emptyParsedRecords(), quantitySamples: reports.map(toSampleRecord) };
    const changes = noChanges();
    await writeParsedRecords(tx, { userId: user.id, provider: SELF_REPORT_PROVIDER }, parsed, changes);
    // Every report was checked; a rejection here is a bug (e.g. a kind missing from the catalog), not a 400.
    if (changes.rejected > 0) throw new Error("The sample writer rejected a checked self report.");
    const days: { first?: string; last?: string } = {};
    localDayRange(parsed, days);
    const written = await insertDataWrittenEvent(tx, jobs, user, SELF_REPORT_PROVIDER, changes, days);
    return { reports: reports.map(toAnswer), duplicate: !written };
  });
}

/** Checks each report against its kind's scale and times; 400 naming every bad field, never a value. */
function checkSelfReports(userId: string, inputs: readonly SelfReportInput[]): CheckedReport[] {
  const problems: string[] = [];
  const reports: CheckedReport[] = [];
  const firstWithId = new Map<string, number>();
  inputs.forEach((input, index) => {
    const at = `reports.${index}`;
    if (!isSelfReportKind(input.kind)) {
      problems.push(`${at}.kind: must be one of ${SELF_REPORT_KIND_NAMES.join(", ")}`);
      return;
    }
    const scale = SELF_REPORT_KINDS[input.kind];
    if (!Number.isInteger(input.value) || input.value < scale.min || input.value > scale.max) {
      problems.push(`${at}.value: must be a whole number from ${scale.min} to ${scale.max} for kind ${input.kind}`);
    }
    const start = new Date(input.start_at);
    const end = input.end_at === undefined ? start : new Date(input.end_at);
    if (Number.isNaN(start.getTime())) problems.push(`${at}.start_at: must be an RFC 3339 date-time`);
    if (Number.isNaN(end.getTime())) problems.push(`${at}.end_at: must be an RFC 3339 date-time`);
    else if (end < start) problems.push(`${at}.end_at: must not be before start_at`);
    if (input.timezone !== undefined && !isTimeZone(input.timezone)) {
      problems.push(`${at}.timezone: must be an IANA time zone (e.g. Europe/Berlin) or a ±hh:mm offset`);
    }
    const id = input.id?.toLowerCase() ?? derivedReportId(userId, input.kind, start, end);
    const first = firstWithId.get(id);
    if (first !== undefined) {
      problems.push(`${at}: has the same id as reports.${first} (without an id, a report's id comes from its kind, start_at and end_at)`);
    } else {
      firstWithId.set(id, index);
    }
    reports.push({ id, kind: input.kind, value: input.value, start, end, timezone: input.timezone ?? null });
  });
  if (problems.length > 0) throw new AppError("bad_request", problems.join("; "));
  return reports;
}

/** 409 when an id is already a stored report of another kind: a report keeps its kind. */
async function requireKeptKinds(db: DbClient, userId: string, reports: readonly CheckedReport[]): Promise<void> {
  const stored = await findSampleTypesByExternalId(db, {
    userId,
    provider: SELF_REPORT_PROVIDER,
    types: SELF_REPORT_KIND_NAMES.map(selfReportType),
    externalIds: reports.map((report) => report.id),
  });
  const typesById = new Map<string, string[]>();
  for (const row of stored) typesById.set(row.external_id, [...(typesById.get(row.external_id) ?? []), row.type]);
  const taken = reports.flatMap((report, index) => {
    const types = typesById.get(report.id) ?? [];
    return types.some((type) => type !== selfReportType(report.kind)) ? [`reports.${index}.id`] : [];
  });
  if (taken.length > 0) {
    throw new AppError("conflict", `${taken.join(", ")}: already the id of a report of another kind; a report keeps its kind, so send another kind with a new id.`);
  }
}

const toSampleRecord = (report: CheckedReport): QuantitySampleRecord => ({
  type: selfReportType(report.kind),
  value: report.value,
  start_date: report.start,
  end_date: report.end,
  source: SELF_REPORT_PROVIDER,
  external_id: report.id,
  was_user_entered: true,
  timezone: report.timezone,
});

const toAnswer = (report: CheckedReport): SelfReport => ({
  id: report.id,
  kind: report.kind,
  type: selfReportType(report.kind),
  value: report.value,
  start_at: report.start.toISOString(),
  end_at: report.end.toISOString(),
  timezone: report.timezone,
});

/** Namespace of the UUID v5 ids of reports sent without an id. */
const REPORT_ID_NAMESPACE = Buffer.from("8a4be1f05c3d4e2b9f6a7d1c2e3b4a59", "hex");

/** UUID v5 (RFC 9562) of the user, kind and times: the same report sent again gets the same id. */
function derivedReportId(userId: string, kind: SelfReportKindName, start: Date, end: Date): string {
  const name = `${userId}/${kind}/${start.getTime()}/${Number.isNaN(end.getTime()) ? "" : end.getTime()}`;
  const bytes = createHash("sha1").update(REPORT_ID_NAMESPACE).update(name).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
