import { lstatSync, readdirSync } from "node:fs";
import path from "node:path";

/** Bytes on disk of a folder's files (allocated blocks, as `du` counts them). */
export function directorySize(dir: string): number {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) bytes += lstatSync(path.join(entry.parentPath, entry.name)).blocks * 512;
  }
  return bytes;
}
