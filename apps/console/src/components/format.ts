/** A date-time for tables: local time, to the second. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return "—";
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" });
}

/** An integer with thousands separators. */
export function formatCount(count: number): string {
  return count.toLocaleString();
}
