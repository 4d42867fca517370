import { createHash } from "node:crypto";

/**
 * Names for statements, so that each pooled connection prepares a statement once and PostgreSQL
 * keeps its parse and, once it judges a generic plan as good, its plan (pg's named statements).
 * A process names at most `max` distinct statements; later ones run unnamed, as before, so the
 * statements a connection keeps stay bounded whatever SQL a long-running process sends.
 */
export function statementNamer(max: number): (query: { sql: string }) => string | undefined {
  const names = new Map<string, string>();
  return ({ sql }) => {
    const known = names.get(sql);
    if (known !== undefined || names.size >= max) return known;
    const name = `svc_${createHash("sha1").update(sql).digest("base64url")}`;
    names.set(sql, name);
    return name;
  };
}
