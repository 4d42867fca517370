/** `{base}{path}?query`, keeping any path of the base (a proxy prefix). */
export function apiUrl(base: string, path: string, query: Record<string, string> = {}): URL {
  const url = new URL(base.replace(/\/+$/, "") + path);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url;
}

export const SCOPE_PREFIX = "https://www.googleapis.com/auth/googlehealth.";
export const ACTIVITY_SCOPE = `${SCOPE_PREFIX}activity_and_fitness.readonly`;
export const METRICS_SCOPE = `${SCOPE_PREFIX}health_metrics_and_measurements.readonly`;
export const SLEEP_SCOPE = `${SCOPE_PREFIX}sleep.readonly`;
export const SETTINGS_SCOPE = `${SCOPE_PREFIX}settings.readonly`;
