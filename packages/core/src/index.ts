// @svc/core: one folder per domain, listed from the bottom up (docs/architecture.md). Each
// domain's index.ts is its public face, to the apps and to the other domains alike.
export type { CoreDeps, InstanceSettings } from "./deps.ts";
export * from "./platform/index.ts";
export * from "./identity/index.ts";
export * from "./events/index.ts";
export * from "./records/index.ts";
export * from "./fhir/index.ts";
export * from "./sharing/index.ts";
export * from "./ingest/index.ts";
export * from "./connections/index.ts";
export * from "./webhooks/index.ts";
export * from "./erasure/index.ts";
export * from "./admin/index.ts";
