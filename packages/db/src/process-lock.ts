import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

/**
 * Runs `work` while holding a lock shared by every process on this machine: the folder
 * `lockPath`, holding the owner's pid. It is taken by renaming a folder prepared with the
 * pid onto `lockPath` (atomic, and it fails while another owner holds it), so a lock never
 * exists without its owner. A lock whose owner process is gone (killed while holding it)
 * is stale and is broken; a live owner is waited for, however slow, up to `timeoutMs`.
 * tooling/scripts/build-lock.mjs is the same rule for run.mjs, which cannot import packages.
 */
export async function withProcessLock<T>(lockPath: string, work: () => Promise<T>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (!tryAcquire(lockPath)) {
    const owner = ownerOf(lockPath);
    if (owner !== undefined && !isAlive(owner)) {
      breakStale(lockPath, owner);
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`waited ${Math.round(timeoutMs / 1000)} s for the lock ${lockPath}, held by process ${owner ?? "(unknown)"}`);
    }
    await sleep(50);
  }
  try {
    return await work();
  } finally {
    release(lockPath);
  }
}

/** Moved aside before it is deleted: a folder half deleted in place could be taken over and then lose its owner file. */
function release(lockPath: string): void {
  const aside = `${lockPath}.released-${randomUUID()}`;
  renameSync(lockPath, aside);
  rmSync(aside, { recursive: true, force: true });
}

function tryAcquire(lockPath: string): boolean {
  const staging = `${lockPath}.${process.pid}-${randomUUID()}`;
  mkdirSync(staging, { recursive: true });
  writeFileSync(path.join(staging, "owner"), String(process.pid));
  try {
    renameSync(staging, lockPath);
    return true;
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOTEMPTY" || code === "EEXIST") return false;
    throw error;
  }
}

function ownerOf(lockPath: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(lockPath, "owner"), "utf8"));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined; // released meanwhile
  }
}

/**
 * Moves the stale lock aside first, so two processes breaking it at once cannot both
 * remove it; a lock that turns out to have a live owner (taken over between our check
 * and the move) is put back.
 */
function breakStale(lockPath: string, deadOwner: number): void {
  const aside = `${lockPath}.stale-${randomUUID()}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return; // someone else broke or released it
  }
  if (ownerOf(aside) !== deadOwner) {
    try {
      renameSync(aside, lockPath);
      return;
    } catch {
      // lockPath was taken again meanwhile; the owner we moved aside lost it.
    }
  }
  rmSync(aside, { recursive: true, force: true });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
