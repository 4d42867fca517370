import { expect } from "vitest";

// A FHIR Bulk Data client written from the steps of the Bulk Data Access IG v2 (export.html)
// with plain HTTP only, so that the test sees svc as any IG client does: kick-off with Accept
// and Prefer, polling the Content-Location while 202 (honouring Retry-After), the manifest at
// 200, then each output file with the same credentials when requiresAccessToken is true.

export interface Manifest {
  transactionTime: string;
  request: string;
  requiresAccessToken: boolean;
  output: Array<{ type: string; url: string; count?: number }>;
  error: Array<{ type: string; url: string }>;
  [key: string]: unknown;
}

const authorization = (token: string) => ({ authorization: `Bearer ${token}` });

/** Kick-off: GET [base]/Patient/$export (or Patient/{id}/$export) with Accept application/fhir+json and Prefer respond-async. */
export async function kickOff(url: string, token: string, extraHeaders: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { headers: { accept: "application/fhir+json", prefer: "respond-async", ...authorization(token), ...extraHeaders } });
}

/** The status URL of an accepted kick-off: 202 with an absolute Content-Location. */
export async function statusUrlOf(response: Response): Promise<string> {
  const body = await response.text();
  expect(response.status, body).toBe(202);
  const location = response.headers.get("content-location");
  expect(location).toMatch(/^https?:\/\//);
  return location!;
}

/** Polls the status URL (Accept application/json) until it is not 202; waits Retry-After seconds (capped) between polls. */
export async function pollUntilDone(statusUrl: string, token: string, maxPolls = 600): Promise<{ response: Response; progress: string[] }> {
  const progress: string[] = [];
  for (let poll = 0; poll < maxPolls; poll++) {
    const response = await fetch(statusUrl, { headers: { accept: "application/json", ...authorization(token) } });
    if (response.status !== 202) return { response, progress };
    await response.arrayBuffer();
    const xProgress = response.headers.get("x-progress");
    if (xProgress !== null) {
      expect(xProgress.length).toBeLessThan(100);
      progress.push(xProgress);
    }
    const retryAfter = Number(response.headers.get("retry-after") ?? "1");
    await new Promise((resolve) => setTimeout(resolve, Math.min(Number.isFinite(retryAfter) ? retryAfter : 1, 2) * 1000));
  }
  throw new Error("the export did not finish");
}

/** The complete status: 200, application/json, the manifest's required fields. */
export async function manifestOf(response: Response): Promise<Manifest> {
  const text = await response.text();
  expect(response.status, text).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  const manifest = JSON.parse(text) as Manifest;
  expect(typeof manifest.transactionTime).toBe("string");
  expect(typeof manifest.request).toBe("string");
  expect(typeof manifest.requiresAccessToken).toBe("boolean");
  expect(Array.isArray(manifest.output)).toBe(true);
  expect(Array.isArray(manifest.error)).toBe(true);
  return manifest;
}

/** Output file request: GET [url] with Accept application/fhir+ndjson (and the token when the manifest requires it); the parsed lines. */
export async function download(url: string, token: string | undefined): Promise<Array<Record<string, any>>> {
  const response = await fetch(url, { headers: { accept: "application/fhir+ndjson", ...(token && authorization(token)) } });
  const text = await response.text();
  expect(response.status, text.slice(0, 500)).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/fhir\+ndjson/);
  if (text === "") return [];
  expect(text.endsWith("\n")).toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line) as Record<string, any>);
}

/** The whole flow: kick-off, polling, manifest, every file; the files' resources by manifest item. */
export async function runExport(url: string, token: string): Promise<{ manifest: Manifest; files: Array<{ type: string; count?: number; resources: Array<Record<string, any>> }>; statusUrl: string; complete: Response }> {
  const statusUrl = await statusUrlOf(await kickOff(url, token));
  const { response } = await pollUntilDone(statusUrl, token);
  const manifest = await manifestOf(response);
  const files = [];
  for (const item of manifest.output) {
    files.push({ type: item.type, count: item.count, resources: await download(item.url, manifest.requiresAccessToken ? token : undefined) });
  }
  return { manifest, files, statusUrl, complete: response };
}
