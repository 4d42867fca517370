import { DATA_CATEGORIES, type DataCategory, isDataCategory, sortCategories } from "../records/index.ts";
import type { CoreDeps } from "../deps.ts";
import { AppError, type DbClient } from "../platform/index.ts";
import {
  type DeletionJobDto,
  getDeletionJob,
  insertConsentDeletionJob,
  listConsentDeletionJobs,
  lockActiveUserForErasure,
  requireActiveUser,
} from "../identity/index.ts";
import { listSourceConsentRows, listUserSourceProviders, saveSourceConsents, type SourceConsentRow } from "./source-consent-repository.ts";
import { emitEvent } from "../events/index.ts";
import { revokeSharesOf } from "./shares.ts";

/** A user's consent to the categories of one source (provider). */
export interface SourceConsentDto {
  provider: string;
  categories: Array<{ category: DataCategory; granted: boolean; updated_at: string | null }>;
}

/** The answer of a revocation: the source's consent and the job deleting the revoked categories' records. */
export interface ConsentRevocationDto {
  consent: SourceConsentDto;
  job: DeletionJobDto;
}

type ConsentDeps = Pick<CoreDeps, "db" | "jobs" | "providers">;

function toConsentDto(provider: string, rows: readonly SourceConsentRow[]): SourceConsentDto {
  const saved = new Map(rows.filter((row) => row.provider === provider).map((row) => [row.category, row]));
  return {
    provider,
    categories: DATA_CATEGORIES.map((category) => {
      const row = saved.get(category);
      return { category, granted: row?.granted ?? true, updated_at: row?.updatedAt.toISOString() ?? null };
    }),
  };
}

/**
 * GET /v1/users/{id}/consents: one entry per source the user has data or a connection of,
 * or saved consent for, by provider slug; every category is listed, granted unless revoked.
 */
export async function listSourceConsents(db: DbClient, tenantId: string, userId: string): Promise<{ data: SourceConsentDto[] }> {
  await requireActiveUser(db, tenantId, userId);
  const rows = await listSourceConsentRows(db, userId);
  const providers = new Set([...(await listUserSourceProviders(db, userId)), ...rows.map((row) => row.provider)]);
  return { data: [...providers].sort().map((provider) => toConsentDto(provider, rows)) };
}

/** The categories asked for, each once in the catalog's order; 400 for an empty list or an unknown category. */
function checkCategories(categories: readonly string[]): DataCategory[] {
  const unknown = categories.filter((category) => !isDataCategory(category));
  if (unknown.length > 0 || categories.length === 0) {
    throw new AppError("bad_request", `categories must be 1 or more of ${DATA_CATEGORIES.join(", ")}`);
  }
  return sortCategories(categories);
}

function requireKnownProvider(deps: Pick<CoreDeps, "providers">, provider: string): void {
  if (!deps.providers.find(provider)) throw new AppError("not_found", `This build knows no provider ${provider}.`);
}

/** The active user, its row held until the transaction ends (consent changes of a user run one after the other). */
async function holdActiveUser(tx: DbClient, tenantId: string, userId: string) {
  const user = await lockActiveUserForErasure(tx, tenantId, userId);
  if (!user) throw new AppError("not_found", "No such user.");
  return user;
}

const openStatuses = new Set(["pending", "running"]);

/**
 * POST /v1/users/{id}/consents/{provider}/grant: grants the categories again (uploads and
 * pulls of them are stored from now on) and writes consent.granted naming those that were
 * revoked; a grant that changes nothing writes nothing. 409 while the records of one of
 * them are still being deleted by a revocation's job.
 */
export async function grantSourceConsent(
  { db, jobs, providers }: ConsentDeps,
  tenantId: string,
  userId: string,
  provider: string,
  categories: readonly string[],
): Promise<SourceConsentDto> {
  requireKnownProvider({ providers }, provider);
  const asked = checkCategories(categories);
  return db.$transaction(async (tx) => {
    const user = await holdActiveUser(tx, tenantId, userId);
    const before = await listSourceConsentRows(tx, userId, provider);
    const revoked = new Set(before.filter((row) => !row.granted).map((row) => row.category));
    const changed = asked.filter((category) => revoked.has(category));
    if (changed.length === 0) return toConsentDto(provider, before);
    const deleting = (await listConsentDeletionJobs(tx, userId, provider)).some(
      (job) => openStatuses.has(job.status) && job.categories.some((category) => changed.includes(category as DataCategory)),
    );
    if (deleting) {
      throw new AppError("conflict", "The records of a category asked for are still being deleted after its revocation; grant it again when that deletion job is done.");
    }
    await saveSourceConsents(tx, { userId, provider, categories: changed, granted: true });
    await emitEvent(tx, jobs, {
      tenantId,
      type: "consent.granted",
      userId,
      data: { user_id: userId, external_ref: user.external_ref, provider, categories: changed },
    });
    return toConsentDto(provider, await listSourceConsentRows(tx, userId, provider));
  });
}

/**
 * POST /v1/users/{id}/consents/{provider}/revoke: revokes the categories; in one transaction
 * saves them revoked, starts a deletion job (provider and categories) that deletes their
 * stored records of the provider, revokes the shares holding them (reason `consent`) and
 * writes consent.revoked naming the categories that were granted. Each asked category
 * already revoked is checked on its own newest job: one whose newest job failed (or that has
 * none) goes into the new job too. A revocation that changes nothing and finds no such
 * category answers the newest of those jobs (the same job while it runs); otherwise a new
 * job for those categories, without an event.
 */
export async function revokeSourceConsent(
  { db, jobs, providers }: ConsentDeps,
  tenantId: string,
  userId: string,
  provider: string,
  categories: readonly string[],
): Promise<ConsentRevocationDto> {
  requireKnownProvider({ providers }, provider);
  const asked = checkCategories(categories);
  const { jobId, consent } = await db.$transaction(async (tx) => {
    const user = await holdActiveUser(tx, tenantId, userId);
    const before = await listSourceConsentRows(tx, userId, provider);
    const revoked = new Set(before.filter((row) => !row.granted).map((row) => row.category));
    const changed = asked.filter((category) => !revoked.has(category));
    const startJob = async (jobCategories: readonly DataCategory[]) => {
      const job = await insertConsentDeletionJob(tx, { tenantId, userId, externalRef: user.external_ref, provider, categories: jobCategories });
      await jobs.send("consent-revoke", { deletion_job_id: job.id }, tx);
      return job.id;
    };
    // Jobs come newest first: the newest job of a category is the first naming it.
    const earlier = await listConsentDeletionJobs(tx, userId, provider);
    const newestOf = (category: DataCategory) => earlier.find((job) => job.categories.includes(category));
    const needsJob = (category: DataCategory) => !revoked.has(category) || (newestOf(category)?.status ?? "failed") === "failed";
    const jobCategories = asked.filter(needsJob);
    if (changed.length === 0) {
      // Every asked category's newest job not failed: the newest of them.
      const newest = jobCategories.length === 0 ? earlier.find((job) => asked.some((category) => newestOf(category)?.id === job.id)) : undefined;
      const jobId = newest?.id ?? (await startJob(jobCategories.length > 0 ? jobCategories : asked));
      return { jobId, consent: toConsentDto(provider, before) };
    }
    await saveSourceConsents(tx, { userId, provider, categories: changed, granted: false });
    const jobId = await startJob(jobCategories);
    await revokeSharesOf(tx, { userId, provider, categories: changed }, "consent", jobs);
    await emitEvent(tx, jobs, {
      tenantId,
      type: "consent.revoked",
      userId,
      data: { user_id: userId, external_ref: user.external_ref, provider, categories: changed },
    });
    return { jobId, consent: toConsentDto(provider, await listSourceConsentRows(tx, userId, provider)) };
  });
  return { consent, job: await getDeletionJob(db, tenantId, jobId) };
}
