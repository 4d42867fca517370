import type { FhirBaseSettings } from "../base/fhir-base.ts";
import type { FhirQuery } from "../base/search-parameters.ts";

/** The status URL of an export (the kick-off's Content-Location): `{base}/bulk-status/{export id}`. */
export const exportStatusUrl = (settings: Pick<FhirBaseSettings, "baseUrl">, exportId: string): string => `${settings.baseUrl}/bulk-status/${exportId}`;

/** The URL of one NDJSON file of an export: `{base}/bulk-files/{export id}/{file number}`. */
export const exportFileUrl = (settings: Pick<FhirBaseSettings, "baseUrl">, exportId: string, fileNumber: number): string =>
  `${settings.baseUrl}/bulk-files/${exportId}/${fileNumber}`;

/** The kick-off's URL as the client sent it (the manifest's `request`): the operation's path under the base and its parameters in order. */
export function exportRequestUrl(settings: Pick<FhirBaseSettings, "baseUrl">, path: string, query: FhirQuery): string {
  const parameters = new URLSearchParams();
  for (const [name, raw] of Object.entries(query)) {
    for (const value of Array.isArray(raw) ? raw : [raw]) if (typeof value === "string") parameters.append(name, value);
  }
  const search = parameters.toString();
  return `${settings.baseUrl}/${path}${search ? `?${search}` : ""}`;
}
