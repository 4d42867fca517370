import { textOf } from "./json.ts";

/**
 * The data point's own id: the last segment of its name
 * (`users/{user}/dataTypes/sleep/dataPoints/{id}`), for the identifiable data types
 * (sleep, exercise, weight...); null for the others.
 */
export function pointIdOf(name: unknown): string | null {
  const text = textOf(name, 300);
  const id = text?.split("/").at(-1);
  return id && /^[A-Za-z0-9._-]{1,100}$/.test(id) ? id : null;
}
