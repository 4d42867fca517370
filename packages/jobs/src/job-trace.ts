import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";

/**
 * The key of a job's data that carries the sender's trace context (W3C `traceparent` and
 * `tracestate`) next to the payload; present only when tracing is on and the job was sent
 * within a span (a request, or another job).
 */
export const TRACE_KEY = "_trace";

const tracer = trace.getTracer("svc");

/** The job data to store: the payload plus the active trace context, when there is one. */
export function withTraceContext(payload: object): object {
  const carrier: Record<string, string> = {};
  propagation.inject(context.active(), carrier);
  return Object.keys(carrier).length === 0 ? payload : { ...payload, [TRACE_KEY]: carrier };
}

/** Splits stored job data into the payload and the sender's trace context. */
export function splitTraceContext(data: unknown): { payload: unknown; carrier: Record<string, string> } {
  if (typeof data !== "object" || data === null || !(TRACE_KEY in data)) return { payload: data, carrier: {} };
  const { [TRACE_KEY]: carrier, ...payload } = data as Record<string, unknown>;
  return { payload, carrier: isCarrier(carrier) ? carrier : {} };
}

/** Runs one job in a consumer span, a child of the sender's span when the job carries one. */
export async function inJobSpan(
  queue: string,
  job: { id: string; retryCount: number },
  carrier: Record<string, string>,
  run: () => Promise<void>,
): Promise<void> {
  const parent = propagation.extract(ROOT_CONTEXT, carrier);
  const span = tracer.startSpan(
    `process ${queue}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        "messaging.system": "pg-boss",
        "messaging.operation.type": "process",
        "messaging.destination.name": queue,
        "messaging.message.id": job.id,
        "svc.job.retry_count": job.retryCount,
      },
    },
    parent,
  );
  try {
    await context.with(trace.setSpan(parent, span), run);
  } catch (error) {
    span.setStatus({ code: SpanStatusCode.ERROR });
    span.setAttribute("error.type", error instanceof Error ? error.name : "unknown");
    throw error;
  } finally {
    span.end();
  }
}

function isCarrier(value: unknown): value is Record<string, string> {
  return typeof value === "object" && value !== null && Object.values(value).every((entry) => typeof entry === "string");
}
