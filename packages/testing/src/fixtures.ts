import { existsSync } from "node:fs";
import path from "node:path";
import { findRepoRoot } from "@svc/db";

/**
 * The shared fixtures written by others (FIT, GPX, TCX, Apple Health, GATT vectors, FHIR
 * examples), read where they lie and never copied into the repo: SVC_FIXTURES_DIR, else
 * `../shared/fixtures` beside the checkout, else /work/shared/fixtures.
 */
export function fixturesDir(): string {
  const candidates = [process.env.SVC_FIXTURES_DIR, path.resolve(findRepoRoot(), "../shared/fixtures"), "/work/shared/fixtures"];
  const found = candidates.find((dir): dir is string => !!dir && existsSync(dir));
  if (!found) throw new Error("The shared fixtures were not found: set SVC_FIXTURES_DIR to their folder.");
  return found;
}

export const fixturePath = (name: string): string => path.join(fixturesDir(), name);
