import { AppError, type DbClient, isTimeZone, type Page, parseTimeWindow, toPage } from "../platform/index.ts";
import type { CoreDeps } from "../deps.ts";
import { emitEvent } from "../events/index.ts";
import { decodeAfterUuid } from "./record-cursors.ts";
import { lockUserForUpload, requireActiveUser, type UserRow } from "../identity/index.ts";
import {
  deleteTimeTag as deleteTimeTagRow,
  findTimeTag,
  insertTimeTag,
  lockTimeTag,
  selectTimeTags,
  updateTimeTag as updateTimeTagRow,
  type TimeTagRow,
  type TimeTagWrite,
} from "./time-tag-repository.ts";

/** The closed list of kinds of time tags, with what each one marks. */
export const TIME_TAG_KIND_DESCRIPTIONS = {
  illness: "being ill (a cold, the flu, a fever)",
  injury: "an injury or pain that changes training",
  medication: "taking a medication that may change heart rate, sleep or performance",
  travel: "travelling",
  jet_lag: "adjusting to a new time zone",
  altitude: "staying at altitude",
  heat: "heat, or training in it",
  alcohol: "drinking alcohol",
  caffeine: "caffeine, e.g. a late coffee",
  late_meal: "a late or heavy meal",
  fasting: "fasting",
  stress: "a stressful time",
  shift_work: "night or shift work",
  vacation: "a holiday",
  training_camp: "a training camp",
  race: "a race or competition",
  taper: "a taper before a race",
  training_break: "a planned pause from training",
  sauna: "a sauna session",
  cold_exposure: "an ice bath or cold exposure",
  meditation: "meditation or breathwork",
  custom: "anything else; the label says what",
} as const;

export type TimeTagKind = keyof typeof TIME_TAG_KIND_DESCRIPTIONS;

export const TIME_TAG_KINDS = Object.keys(TIME_TAG_KIND_DESCRIPTIONS) as [TimeTagKind, ...TimeTagKind[]];

export interface TimeTagDto {
  tag_id: string;
  kind: TimeTagKind;
  label: string;
  note: string | null;
  start_at: string;
  end_at: string | null;
  timezone: string | null;
  created_at: string;
  updated_at: string;
}

/** A new tag as the API takes it; times are RFC 3339. end_at null or absent: ongoing. */
export interface TimeTagInput {
  kind: TimeTagKind;
  label: string;
  note?: string | null | undefined;
  start_at: string;
  end_at?: string | null | undefined;
  timezone?: string | null | undefined;
}

/** A change of a tag: absent fields stay; null clears note and timezone, and reopens end_at (ongoing). */
export interface TimeTagPatch {
  kind?: TimeTagKind | undefined;
  label?: string | undefined;
  note?: string | null | undefined;
  start_at?: string | undefined;
  end_at?: string | null | undefined;
  timezone?: string | null | undefined;
}

const toTimeTagDto = (row: TimeTagRow): TimeTagDto => ({
  tag_id: row.id,
  // Only this service writes tags, always with a kind of the list.
  kind: row.kind as TimeTagKind,
  label: row.label,
  note: row.note,
  start_at: row.startAt.toISOString(),
  end_at: row.endAt?.toISOString() ?? null,
  timezone: row.timezone,
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

const tagNotFound = () => new AppError("not_found", "No such tag.");

// Tag text is written by a person: no error below ever quotes a value sent.
function checkTimeZone(timezone: string | null): string | null {
  if (timezone !== null && (/^[+-]/.test(timezone) || !isTimeZone(timezone))) {
    throw new AppError("bad_request", "timezone must be an IANA time zone such as Europe/Berlin");
  }
  return timezone;
}

function checkOrder(tag: TimeTagWrite): TimeTagWrite {
  if (tag.endAt && tag.endAt < tag.startAt) throw new AppError("bad_request", "end_at must not be before start_at");
  return tag;
}

/** An RFC 3339 time the API schema already checked (any offset, seconds optional). */
function parseTime(name: "start_at" | "end_at", value: string): Date {
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) throw new AppError("bad_request", `${name} must be an RFC 3339 time`);
  return time;
}

const parseEnd = (endAt: string | null | undefined) => (endAt == null ? null : parseTime("end_at", endAt));

/** The active user, its row held until the transaction ends so that a deletion cannot start meanwhile. */
async function holdActiveUser(tx: DbClient, tenantId: string, userId: string): Promise<UserRow> {
  await lockUserForUpload(tx, userId);
  return requireActiveUser(tx, tenantId, userId);
}

function writeTagEvent(tx: DbClient, jobs: CoreDeps["jobs"], user: UserRow, type: "tag.created" | "tag.updated" | "tag.deleted", tagId: string) {
  return emitEvent(tx, jobs, {
    tenantId: user.tenantId,
    type,
    userId: user.id,
    data: { user_id: user.id, external_ref: user.externalRef, tag_id: tagId },
  });
}

/** POST /v1/users/{id}/tags: stores the tag and writes tag.created in one transaction. */
export async function createTimeTag({ db, jobs }: Pick<CoreDeps, "db" | "jobs">, tenantId: string, userId: string, input: TimeTagInput): Promise<TimeTagDto> {
  const tag = checkOrder({
    kind: input.kind,
    label: input.label,
    note: input.note ?? null,
    startAt: parseTime("start_at", input.start_at),
    endAt: parseEnd(input.end_at),
    timezone: checkTimeZone(input.timezone ?? null),
  });
  return db.$transaction(async (tx) => {
    const user = await holdActiveUser(tx, tenantId, userId);
    const row = await insertTimeTag(tx, user.id, tag);
    await writeTagEvent(tx, jobs, user, "tag.created", row.id);
    return toTimeTagDto(row);
  });
}

/** GET /v1/users/{id}/tags/{tag_id}. */
export async function getTimeTag(db: DbClient, tenantId: string, userId: string, tagId: string): Promise<TimeTagDto> {
  const user = await requireActiveUser(db, tenantId, userId);
  const row = await findTimeTag(db, user.id, tagId);
  if (!row) throw tagNotFound();
  return toTimeTagDto(row);
}

/**
 * GET /v1/users/{id}/tags: the tags overlapping [start, end), ongoing ones included, ordered
 * by start_at then tag_id.
 */
export async function listTimeTags(
  db: DbClient,
  tenantId: string,
  userId: string,
  input: { kind?: TimeTagKind | undefined; start?: string | undefined; end?: string | undefined; cursor?: string | undefined; limit: number },
): Promise<Page<TimeTagDto>> {
  const window = parseTimeWindow(input);
  const after = decodeAfterUuid(input.cursor);
  const user = await requireActiveUser(db, tenantId, userId);
  const rows = await selectTimeTags(db, { userId: user.id, kind: input.kind, start: window.start, end: window.end, after, limit: input.limit });
  return toPage(rows, input.limit, toTimeTagDto, (row) => ({ t: row.startAt.toISOString(), id: row.id }));
}

/**
 * PATCH /v1/users/{id}/tags/{tag_id}: applies the fields sent. tag.updated is written in the
 * same transaction, and only when a value changed; a change that sends what is stored
 * leaves the tag (and its updated_at) alone.
 */
export async function updateTimeTag(
  { db, jobs }: Pick<CoreDeps, "db" | "jobs">,
  tenantId: string,
  userId: string,
  tagId: string,
  patch: TimeTagPatch,
): Promise<TimeTagDto> {
  const startAt = patch.start_at === undefined ? undefined : parseTime("start_at", patch.start_at);
  const endAt = patch.end_at === undefined ? undefined : parseEnd(patch.end_at);
  const timezone = patch.timezone === undefined ? undefined : checkTimeZone(patch.timezone);
  return db.$transaction(async (tx) => {
    const user = await holdActiveUser(tx, tenantId, userId);
    await lockTimeTag(tx, user.id, tagId);
    const row = await findTimeTag(tx, user.id, tagId);
    if (!row) throw tagNotFound();
    const next = checkOrder({
      kind: patch.kind ?? row.kind,
      label: patch.label ?? row.label,
      note: patch.note === undefined ? row.note : patch.note,
      startAt: startAt ?? row.startAt,
      endAt: endAt === undefined ? row.endAt : endAt,
      timezone: timezone === undefined ? row.timezone : timezone,
    });
    if (!changed(row, next)) return toTimeTagDto(row);
    const updated = await updateTimeTagRow(tx, user.id, row.id, next);
    await writeTagEvent(tx, jobs, user, "tag.updated", row.id);
    return toTimeTagDto(updated);
  });
}

/** DELETE /v1/users/{id}/tags/{tag_id}: removes the tag and writes tag.deleted in one transaction. */
export async function deleteTimeTag({ db, jobs }: Pick<CoreDeps, "db" | "jobs">, tenantId: string, userId: string, tagId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    const user = await holdActiveUser(tx, tenantId, userId);
    if (!(await deleteTimeTagRow(tx, user.id, tagId))) throw tagNotFound();
    await writeTagEvent(tx, jobs, user, "tag.deleted", tagId);
  });
}

function changed(row: TimeTagRow, next: TimeTagWrite): boolean {
  return (
    row.kind !== next.kind ||
    row.label !== next.label ||
    row.note !== next.note ||
    row.startAt.getTime() !== next.startAt.getTime() ||
    (row.endAt?.getTime() ?? null) !== (next.endAt?.getTime() ?? null) ||
    row.timezone !== next.timezone
  );
}
