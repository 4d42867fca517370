import { startClientSpan } from "../../platform/index.ts";
import { ProviderError, type ProviderRequestInit } from "./connector.ts";

/** A provider that does not answer in this time is a failed attempt (retried later). */
export const PROVIDER_REQUEST_TIMEOUT_MS = 30_000;
/** The largest file a connector downloads (`response: "bytes"`); a FIT file of a long day is a few MiB. */
export const PROVIDER_DOWNLOAD_MAX_BYTES = 64 * 1024 * 1024;

export interface RequestCredentials {
  /** The user's access token (auth `bearer`). */
  accessToken?: string | null;
  /** The application's CLIENT_ID and CLIENT_SECRET (auth `basic`). */
  clientId?: string;
  clientSecret?: string;
}

/**
 * One call to a provider: JSON or form body, bearer or basic credentials, JSON answer (or
 * the body's bytes with `response: "bytes"`).
 * Every refusal becomes a ProviderError by status: 401 refused, 403 permission, 429
 * rate_limited (with Retry-After), anything else failed. Messages name the status and
 * the path, never a body (it may hold health values or tokens).
 */
export async function providerRequest(url: string | URL, init: ProviderRequestInit, credentials: RequestCredentials): Promise<unknown> {
  const target = new URL(url);
  const bytes = init.response === "bytes";
  const headers: Record<string, string> = { accept: bytes ? "*/*" : "application/json", ...init.headers };
  const auth = init.auth ?? "bearer";
  if (auth === "bearer") {
    if (!credentials.accessToken) throw new ProviderError("refused", "The connection holds no access token.");
    headers.authorization = `Bearer ${credentials.accessToken}`;
  } else if (auth === "basic") {
    headers.authorization = `Basic ${Buffer.from(`${credentials.clientId ?? ""}:${credentials.clientSecret ?? ""}`).toString("base64")}`;
  }
  let body: string | undefined;
  if (init.body instanceof URLSearchParams) {
    body = init.body.toString();
    headers["content-type"] ??= "application/x-www-form-urlencoded";
  } else if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers["content-type"] ??= "application/json";
  }

  const method = init.method ?? "GET";
  const span = startClientSpan(method, target);
  let response: Response;
  try {
    response = await fetch(target, { method, headers: { ...headers, ...span.headers }, body, redirect: "error", signal: AbortSignal.timeout(PROVIDER_REQUEST_TIMEOUT_MS) });
    span.end(response.status);
  } catch (error) {
    span.end(null);
    const reason = error instanceof Error && error.name === "TimeoutError" ? "did not answer in time" : "could not be reached";
    throw new ProviderError("failed", `${target.host}${target.pathname} ${reason}.`);
  }
  const where = `${method} ${target.pathname}`;
  if (!response.ok) {
    // Not awaited: under msw a cancelled body's promise never settles.
    void response.body?.cancel().catch(() => {});
    throw providerErrorOfStatus(response.status, where, response.headers.get("retry-after"));
  }
  if (bytes) return downloaded(response, where);
  if (response.status === 204) return null;
  const text = await response.text();
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new ProviderError("failed", `${where} answered ${response.status} with a body that is not JSON.`, { status: response.status });
  }
}

/** The body of a download, refused (failed) when it is larger than PROVIDER_DOWNLOAD_MAX_BYTES. */
async function downloaded(response: Response, where: string): Promise<Buffer> {
  const tooLarge = () => new ProviderError("failed", `${where} answered a file larger than ${PROVIDER_DOWNLOAD_MAX_BYTES} bytes.`, { status: response.status });
  const declared = Number(response.headers.get("content-length") ?? Number.NaN);
  if (declared > PROVIDER_DOWNLOAD_MAX_BYTES) {
    void response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  if (response.body) {
    for await (const chunk of response.body) {
      total += chunk.byteLength;
      if (total > PROVIDER_DOWNLOAD_MAX_BYTES) throw tooLarge();
      chunks.push(chunk);
    }
  }
  return Buffer.concat(chunks);
}

/** The ProviderError of an HTTP status of the provider. */
export function providerErrorOfStatus(status: number, where: string, retryAfter: string | null = null): ProviderError {
  if (status === 401) return new ProviderError("refused", `${where} refused the grant (401).`, { status });
  if (status === 403) return new ProviderError("permission", `${where} refused access (403): a permission is missing.`, { status });
  if (status === 429) {
    return new ProviderError("rate_limited", `${where} asked to wait (429).`, { status, retryAfterSeconds: retryAfterSeconds(retryAfter) });
  }
  return new ProviderError("failed", `${where} answered ${status}.`, { status });
}

/** Seconds from a Retry-After header (delta seconds or an HTTP date); null when absent or unreadable. */
export function retryAfterSeconds(header: string | null, now: Date = new Date()): number | null {
  if (!header) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  if (Number.isNaN(date)) return null;
  return Math.max(0, Math.ceil((date - now.getTime()) / 1000));
}
