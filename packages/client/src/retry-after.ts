/**
 * The wait a Retry-After header asks for, in milliseconds: delay-seconds or an HTTP date
 * (RFC 9110 section 10.2.3). undefined when absent or unreadable.
 */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date starts with the day name (IMF-fixdate, and the obsolete RFC 850 and asctime forms).
  if (!/^[A-Za-z]/.test(value)) return undefined;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
