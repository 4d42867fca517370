export * from "./consent-revocations.ts";
export * from "./provider-erasures.ts";
export * from "./tenant-deletions.ts";
export * from "./user-deletions.ts";
