import { IDEMPOTENCY_KEY_HEADER, newIdempotencyKey, takesIdempotencyKey } from "./idempotency.ts";
import { retryAfterMs } from "./retry-after.ts";

export type Fetch = (input: Request | string | URL, init?: RequestInit) => Promise<Response>;

export interface RetryOptions {
  /** Attempts in all, the first one included (default 4). */
  maxAttempts?: number;
  /** Backoff when no Retry-After came: this doubled per attempt, with jitter (default 500 ms). */
  baseDelayMs?: number;
  /** The longest wait. When Retry-After asks for more, that answer is returned instead (default 60 s). */
  maxDelayMs?: number;
}

const DEFAULT_RETRY: Required<RetryOptions> = { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 60_000 };
const RETRY_STATUSES = new Set([429, 503]);
/** Methods a repeat cannot do twice. PATCH is left out: a patch may be relative. */
const REPEATABLE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/**
 * The fetch both clients send through. A POST to a route that honours Idempotency-Key gets
 * a fresh key unless the caller set one, and every retry of that call repeats it. Answers
 * 429 and 503 are retried after Retry-After (seconds or an HTTP date), else after an
 * exponential backoff with jitter; only repeatable methods and keyed POSTs are retried.
 */
export function createRetryingFetch(options: { fetch?: Fetch | undefined; retry?: RetryOptions | false | undefined }): Fetch {
  const send = options.fetch ?? globalThis.fetch;
  const retry = options.retry === false ? { ...DEFAULT_RETRY, maxAttempts: 1 } : { ...DEFAULT_RETRY, ...options.retry };
  return async (input, init) => {
    const request = new Request(input, init);
    const keyed = takesIdempotencyKey(request.method, request.url);
    if (keyed && !request.headers.has(IDEMPOTENCY_KEY_HEADER)) request.headers.set(IDEMPOTENCY_KEY_HEADER, newIdempotencyKey());
    const repeatable = keyed || REPEATABLE_METHODS.has(request.method);
    for (let attempt = 1; ; attempt++) {
      const last = !repeatable || attempt >= retry.maxAttempts;
      const response = await send(last ? request : request.clone());
      if (last || !RETRY_STATUSES.has(response.status)) return response;
      const wait = retryAfterMs(response.headers.get("retry-after")) ?? backoffMs(attempt, retry);
      if (wait > retry.maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(wait, request.signal);
    }
  };
}

/** Half of the doubled delay fixed, half random, so clients that failed together spread out. */
function backoffMs(attempt: number, retry: Required<RetryOptions>): number {
  const ceiling = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener("abort", abort, { once: true });
  });
}
