export * from "./admin-keys.ts";
export * from "./audit-log.ts";
export * from "./auth.ts";
export {
  erasureRunning,
  findConsentDeletionJob,
  findDeletionJob,
  findOpenErasureJob,
  insertConsentDeletionJob,
  insertDeletionJob,
  listConsentDeletionJobs,
  setDeletionJobStatus,
} from "./deletion-job-repository.ts";
export * from "./deletion-jobs.ts";
export * from "./principal-cache.ts";
export { deleteIdempotencyRecordsOfUser } from "./idempotency-repository.ts";
export * from "./idempotency.ts";
export { deleteRateLimitRows } from "./rate-limit-repository.ts";
export * from "./rate-limits.ts";
export * from "./readers.ts";
export * from "./tenant-api-keys.ts";
export {
  countTenantDeletionJobs,
  findTenantDeletionJobById,
  findTenantDeletionJobOfTenant,
  insertTenantDeletionJob,
  listTenantDeletionJobsOf,
  setTenantDeletionJobState,
  type TenantDeletionJobRow,
} from "./tenant-deletion-job-repository.ts";
export { findTenantProviderSwitch, listTenantProviderSwitches, upsertTenantProviderSwitch } from "./tenant-provider-repository.ts";
export * from "./tenant-providers.ts";
export { findActiveTenantById, lockForTransaction } from "./tenant-repository.ts";
export * from "./tenants.ts";
export * from "./tokens.ts";
export {
  deleteUserRow,
  findActiveUser,
  findUser,
  findUserById,
  lockActiveUserForErasure,
  lockUserForUpload,
  type UserFilter,
  type UserRow,
} from "./user-repository.ts";
export { deleteTokensOfUser } from "./user-token-repository.ts";
export * from "./users.ts";
