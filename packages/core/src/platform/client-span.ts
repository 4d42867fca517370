import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";

const tracer = trace.getTracer("svc");

export interface ClientSpan {
  /** The W3C trace headers to send (`traceparent`, `tracestate`); none when tracing is off. */
  headers: Record<string, string>;
  /** Ends the span with the answer's status, or null when no answer came. */
  end(status: number | null): void;
}

/**
 * A client span for one outgoing HTTP call (a provider's API, a webhook receiver). It records
 * the method, the host and the status only: never the path or query, which may carry ids or
 * tokens of the other side.
 */
export function startClientSpan(method: string, target: URL): ClientSpan {
  const span = tracer.startSpan(method, {
    kind: SpanKind.CLIENT,
    attributes: { "http.request.method": method, "server.address": target.hostname, ...(target.port && { "server.port": Number(target.port) }) },
  });
  const headers: Record<string, string> = {};
  propagation.inject(trace.setSpan(context.active(), span), headers);
  return {
    headers,
    end(status) {
      if (status !== null) span.setAttribute("http.response.status_code", status);
      if (status === null || status >= 400) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    },
  };
}
