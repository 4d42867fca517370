import { IDEMPOTENT_REST_POSTS, IDEMPOTENT_TRPC_MUTATIONS } from "./generated/idempotent-operations.ts";

export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

const restPatterns = IDEMPOTENT_REST_POSTS.map(
  (template) => new RegExp(`${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
);
const trpcPaths = new Set<string>(IDEMPOTENT_TRPC_MUTATIONS.map((name) => `/trpc/${name}`));

/**
 * Whether the server honours Idempotency-Key on this request: a POST to one of the routes
 * that take it (REST or the tRPC procedure behind it). Matched on the end of the path, so a
 * base URL with a path prefix works too.
 */
export function takesIdempotencyKey(method: string, url: string): boolean {
  if (method.toUpperCase() !== "POST") return false;
  const { pathname } = new URL(url);
  for (const path of trpcPaths) if (pathname.endsWith(path)) return true;
  return restPatterns.some((pattern) => pattern.test(pathname));
}

/** A fresh key for one logical call; every retry of that call sends the same key. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}
