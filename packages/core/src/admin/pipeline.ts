import type { CoreDeps } from "../deps.ts";
import { isConnector, type ProviderKind } from "../connections/index.ts";
import {
  countConnectionsByProvider,
  countDeliveries,
  countRawObjectsInProcessing,
  countRawObjectsStored,
  countRejectedRecords,
  countSyncRuns,
  countUsersByStatus,
  findPausedApplications,
  type DeliveryCounts,
  type RawObjectCounts,
  type SyncRunCounts,
} from "./pipeline-repository.ts";
import { providerOnForTenant } from "../identity/index.ts";

const DAY_MS = 86_400_000;

/** One source of the tenant in the pipeline: counts of its connections, never a record. */
export interface PipelineSourceDto {
  slug: string;
  name: string;
  kinds: ProviderKind[];
  enabled: boolean;
  connections: { active: number; needs_reauth: number; disconnected: number };
  broken: number;
  paused_until: string | null;
}

/** The Pipeline resource: counts only, never a health value. */
export interface PipelineDto {
  generated_at: string;
  users: { active: number; deleting: number };
  sources: PipelineSourceDto[];
  sync: SyncRunCounts;
  processing: { pending: number; running: number; parked: number; rejected_records: number };
  storage: { raw_objects_24h: number; raw_bytes_24h: number };
  delivery: DeliveryCounts;
}

/** The instance's ETL backlog: GET /v1/pipeline's `processing` counts over every tenant (metrics). */
export interface EtlBacklogDto {
  pending: number;
  running: number;
  parked: number;
}

/**
 * GET /v1/pipeline: where the tenant's data stands, from connections to webhook deliveries.
 * A source is enabled when the tenant can use it (as GET /v1/providers lists it).
 */
export async function getPipeline(deps: Pick<CoreDeps, "db" | "providers" | "providerConfig" | "uploads">, tenantId: string): Promise<PipelineDto> {
  const { db } = deps;
  const now = new Date();
  const dayAgo = new Date(now.getTime() - DAY_MS);
  const [users, connectionCounts, pauses, sync, processing, rejectedRecords, stored, delivery] = await Promise.all([
    countUsersByStatus(db, tenantId),
    countConnectionsByProvider(db, tenantId),
    findPausedApplications(db, tenantId, now),
    countSyncRuns(db, tenantId, dayAgo),
    countRawObjectsInProcessing(db, tenantId, deps.uploads.lapseMs),
    countRejectedRecords(db, tenantId),
    countRawObjectsStored(db, tenantId, dayAgo),
    countDeliveries(db, tenantId),
  ]);
  const sources: PipelineSourceDto[] = [];
  for (const provider of deps.providers.all()) {
    const enabled = isConnector(provider)
      ? (await deps.providerConfig.availability(tenantId, provider)).available
      : await providerOnForTenant(db, tenantId, provider.slug);
    const connections = { active: 0, needs_reauth: 0, disconnected: 0 };
    let broken = 0;
    for (const row of connectionCounts.filter((count) => count.provider === provider.slug)) {
      connections[row.status] = row.count;
      broken += row.broken;
    }
    const pausedUntil = pauses.find((pause) => pause.provider === provider.slug)?.paused_until ?? null;
    sources.push({ slug: provider.slug, name: provider.name, kinds: [provider.kind], enabled, connections, broken, paused_until: pausedUntil?.toISOString() ?? null });
  }
  return {
    generated_at: now.toISOString(),
    users,
    sources,
    sync,
    processing: { ...backlogOf(processing), rejected_records: rejectedRecords },
    storage: { raw_objects_24h: stored.objects, raw_bytes_24h: stored.bytes },
    delivery,
  };
}

/** The raw objects of every tenant still to normalize, being received, or given up on: the `processing` counts of GET /v1/pipeline. */
export async function getEtlBacklog(deps: Pick<CoreDeps, "db" | "uploads">): Promise<EtlBacklogDto> {
  return backlogOf(await countRawObjectsInProcessing(deps.db, null, deps.uploads.lapseMs));
}

function backlogOf(counts: RawObjectCounts): EtlBacklogDto {
  return { pending: counts.pending, running: counts.receiving, parked: counts.failed };
}
