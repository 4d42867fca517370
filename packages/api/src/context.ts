import type { CoreDeps, Principal } from "@svc/core";

/** What every procedure sees. Built per request by the host (express) from its headers. */
export interface ApiContext {
  deps: CoreDeps;
  requestId: string;
  /** The raw Authorization header; resolved to a principal only by procedures that need one. */
  authorization: string | undefined;
  /**
   * A principal the host already resolved (MCP authenticates once per request); procedures
   * then use it instead of resolving `authorization`. REST and /trpc leave it unset.
   */
  principal?: Principal | undefined;
  /** The Idempotency-Key header, when sent. */
  idempotencyKey: string | undefined;
  /** The Prefer header, when sent (the FHIR base reads `handling=strict` from it). */
  prefer?: string | undefined;
  /** The path and query as the client sent them (a FHIR export's manifest names its kick-off URL), when the host knows it. */
  requestPath?: string | undefined;
  /** Status and headers a procedure sets on its answer (REST only honours the status). */
  response: { status?: number; headers: Record<string, string> };
}

export type AuthedContext<P extends Principal> = ApiContext & { principal: P };

export function createApiContext(input: {
  deps: CoreDeps;
  requestId: string;
  header: (name: string) => string | undefined;
  requestPath?: string | undefined;
}): ApiContext {
  return {
    deps: input.deps,
    requestId: input.requestId,
    authorization: input.header("authorization"),
    idempotencyKey: input.header("idempotency-key"),
    prefer: input.header("prefer"),
    requestPath: input.requestPath,
    response: { headers: {} },
  };
}
