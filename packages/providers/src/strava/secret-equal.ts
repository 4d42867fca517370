import { createHash, timingSafeEqual } from "node:crypto";

/** Whether two secrets are equal, in time that does not depend on where they differ (digests have one length). */
export function secretEqual(given: string, expected: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(given), digest(expected));
}
