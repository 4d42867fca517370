import { ProviderError, type ProviderClient, type ProviderRequestInit } from "@svc/core";

/** An AccessLink URL: the API base (`SVC_POLAR_API_URL`), a path and query parameters. */
export function accessLinkUrl(apiUrl: string, path: string, query: Record<string, string> = {}): string {
  const url = new URL(`${apiUrl.replace(/\/+$/, "")}${path}`);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url.toString();
}

/** A call whose "nothing there" answers (204, 404 for a date without data) are null rather than errors. */
export async function requestOrNull(client: ProviderClient, url: string, init: ProviderRequestInit = {}): Promise<unknown> {
  try {
    return await client.request(url, init);
  } catch (error) {
    if (error instanceof ProviderError && error.status === 404) return null;
    throw error;
  }
}
