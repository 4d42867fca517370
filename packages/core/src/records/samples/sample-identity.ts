/** The dedupe key of a record the provider gave an id. */
export const externalIdentity = (externalId: string): string => `id:${externalId}`;

/**
 * A record's identity within its user, provider (and type): the provider's own id when it
 * has one, else its times, device and source name. A changed value keeps the identity, so
 * it updates the stored record.
 */
export function recordIdentity(r: { externalId: string | null; start: Date; end: Date; device: string | null; sourceName: string | null }): string {
  if (r.externalId) return externalIdentity(r.externalId);
  return `at:${r.start.toISOString()}/${r.end.toISOString()}/${r.device ?? ""}/${r.sourceName ?? ""}`;
}
