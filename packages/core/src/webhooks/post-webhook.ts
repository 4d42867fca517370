// One delivery attempt: POST the exact body to the endpoint through the guarded agent and
// describe what came back. It never throws for anything the receiver or the network does.
//
// It uses undici's `request` on the guarded Agent rather than global fetch: `request` follows
// no redirects, adds no headers of its own (fetch adds accept, accept-language,
// sec-fetch-mode, accept-encoding), never decompresses, and gives the body as a stream we
// can destroy after 1 KiB. The Agent is the same undici 7 that creates it (no mix with the
// copy bundled in Node), and msw cannot intercept it: webhook tests use real local receivers,
// which is also the only honest way to test the address guard.
import { errors, type Dispatcher } from "undici";
import corePackage from "../../package.json" with { type: "json" };
import { startClientSpan } from "../platform/index.ts";
import { AddressNotAllowedError, webhookAgent } from "./guarded-agent.ts";
import { readExcerpt, type ExcerptRead } from "./response-excerpt.ts";

export const WEBHOOK_TIMEOUT_MS = 15_000;
export const WEBHOOK_USER_AGENT = `svc-webhooks/${corePackage.version}`;

export type AttemptOutcome = {
  ok: boolean;
  /** null when no HTTP answer came. */
  statusCode: number | null;
  /** null on success. */
  error: string | null;
  /** The first 1 KiB of the answer as printable text; null when no HTTP answer came. */
  responseBodyExcerpt: string | null;
  durationMs: number;
};

export type PostWebhookInput = {
  url: string;
  /** The signature headers and any others; content-type and user-agent are set here. */
  headers: Record<string, string>;
  /** The exact bytes that were signed. */
  body: string | Uint8Array;
  /** Covers connecting, the answer's headers and reading its body. Default 15 s. */
  timeoutMs?: number;
  /** SVC_WEBHOOK_ALLOW_PRIVATE. */
  allowPrivate: boolean;
  /** Tests only: a guarded agent from createGuardedAgent that trusts a test CA. */
  agent?: Dispatcher;
};

export async function postWebhook(input: PostWebhookInput): Promise<AttemptOutcome> {
  const started = performance.now();
  const timeoutMs = input.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const deadline = AbortSignal.timeout(timeoutMs);
  const finish = (outcome: Omit<AttemptOutcome, "durationMs">): AttemptOutcome => ({
    ...outcome,
    durationMs: Math.round(performance.now() - started),
  });
  const noAnswer = (error: string) =>
    finish({ ok: false, statusCode: null, error, responseBodyExcerpt: null });

  const url = URL.parse(input.url);
  if (url === null) return noAnswer("invalid URL");
  const agent = input.agent ?? webhookAgent(input.allowPrivate);
  const span = startClientSpan("POST", url);

  let response: Dispatcher.ResponseData;
  try {
    const sent = agent.request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: "POST",
      headers: { ...requestHeaders(input.headers), ...span.headers },
      body: typeof input.body === "string" ? Buffer.from(input.body, "utf8") : input.body,
      signal: deadline,
      // The deadline decides; undici's own timers only back it up, a little later, so they
      // never win the race and name the failure differently.
      headersTimeout: timeoutMs + 1000,
      bodyTimeout: timeoutMs + 1000,
    });
    response = await beforeDeadline(sent, deadline);
    span.end(response.statusCode);
  } catch (error) {
    span.end(null);
    return noAnswer(deadline.aborted ? timeoutText(timeoutMs) : describeRequestError(error));
  }

  const { statusCode } = response;
  let read: ExcerptRead;
  try {
    read = await readExcerpt(response.body, deadline);
  } catch (error) {
    return finish({ ok: false, statusCode, error: describeRequestError(error), responseBodyExcerpt: null });
  }
  const excerpt = read.excerpt;
  if (statusCode >= 300 && statusCode < 400) {
    return finish({ ok: false, statusCode, error: `redirect (${statusCode}) not followed`, responseBodyExcerpt: excerpt });
  }
  if (statusCode < 200 || statusCode >= 300) {
    return finish({ ok: false, statusCode, error: `HTTP ${statusCode}`, responseBodyExcerpt: excerpt });
  }
  if (read.timedOut) {
    return finish({ ok: false, statusCode, error: timeoutText(timeoutMs), responseBodyExcerpt: excerpt });
  }
  return finish({ ok: true, statusCode, error: null, responseBodyExcerpt: excerpt });
}

function requestHeaders(headers: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) result[name.toLowerCase()] = value;
  result["content-type"] = "application/json";
  result["user-agent"] = WEBHOOK_USER_AGENT;
  return result;
}

function timeoutText(timeoutMs: number): string {
  return `timeout after ${timeoutMs / 1000} s`;
}

/**
 * undici ignores the abort signal while a connection is still being opened (DNS, TCP, TLS),
 * so the deadline is raced here; a request that loses still completes in the background and
 * its body, if any, is thrown away.
 */
function beforeDeadline(
  sent: Promise<Dispatcher.ResponseData>,
  deadline: AbortSignal,
): Promise<Dispatcher.ResponseData> {
  return new Promise((resolve, reject) => {
    const onDeadline = () => {
      reject(deadline.reason);
      sent.then((late) => late.body.destroy(), () => undefined);
    };
    if (deadline.aborted) return onDeadline();
    deadline.addEventListener("abort", onDeadline, { once: true });
    sent.then(
      (response) => {
        deadline.removeEventListener("abort", onDeadline);
        resolve(response);
      },
      (error: unknown) => {
        deadline.removeEventListener("abort", onDeadline);
        reject(error);
      },
    );
  });
}

const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|DEPTH_ZERO_|SELF_SIGNED_|UNABLE_TO_)/;

/** A short, stack-free text for a failed request; the receiver's own words are not in it. */
export function describeRequestError(error: unknown): string {
  if (error instanceof AddressNotAllowedError) return error.message;
  const code = errorCode(error);
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ENOTFOUND" || code === "EAI_NONAME") return "host not found";
  if (code === "EAI_AGAIN") return "DNS lookup failed";
  if (code === "ECONNRESET" || code === "EPIPE") return "connection reset by the receiver";
  if (code === "UND_ERR_SOCKET") return "connection closed by the receiver";
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") return "host unreachable";
  if (code === "ETIMEDOUT" || code === "UND_ERR_CONNECT_TIMEOUT") return "connection timed out";
  if (code === "UND_ERR_HEADERS_OVERFLOW") return "response headers too large";
  if (error instanceof errors.HTTPParserError) return "invalid HTTP response";
  const message = error instanceof Error ? firstLine(error.message) : "unknown error";
  if (code !== undefined && TLS_CODE.test(code)) return `TLS error: ${message}`;
  return code === undefined ? message : `${code}: ${message}`;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return typeof code === "string" ? code : undefined;
}

function firstLine(text: string): string {
  const line = text.split("\n", 1)[0] ?? "";
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}
