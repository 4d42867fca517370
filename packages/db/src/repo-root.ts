import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The checkout's root folder, found by walking up to the folder holding
 * `prisma/schema.prisma`. Works from source (tests) and from a bundle in apps/x/dist.
 */
export function findRepoRoot(from: string = path.dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (;;) {
    if (existsSync(path.join(dir, "prisma", "schema.prisma"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`prisma/schema.prisma not found above ${from}`);
    dir = parent;
  }
}

export const migrationsDir = (): string => path.join(findRepoRoot(), "prisma", "migrations");
export const schemaPath = (): string => path.join(findRepoRoot(), "prisma", "schema.prisma");
