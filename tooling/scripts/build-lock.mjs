// A lock across processes for run.mjs, which runs on the system's Node before any package
// is installed: two `npm run svc` (or start, test) at once must not install or build over
// each other. Same rule as packages/db/src/process-lock.ts (which it cannot import): the
// lock is a folder holding the owner's pid, taken by renaming a prepared folder onto it;
// an owner that is gone leaves a stale lock, which is broken. Synchronous: run.mjs is.
import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const POLL_MS = 100;

/**
 * Runs `work` (synchronous) holding the lock `lockPath`. While another live process holds
 * it, `onWait(ownerPid)` is called once and this waits, up to `timeoutMs`.
 * @template T
 * @param {string} lockPath
 * @param {() => T} work
 * @param {{ timeoutMs?: number, onWait?: (owner: number | undefined) => void }} [options]
 * @returns {T}
 */
export function withBuildLock(lockPath, work, { timeoutMs = 30 * 60_000, onWait = () => {} } = {}) {
  const deadline = Date.now() + timeoutMs;
  let waiting = false;
  while (!tryAcquire(lockPath)) {
    const owner = ownerOf(lockPath);
    if (owner !== undefined && !isAlive(owner)) {
      breakStale(lockPath, owner);
      continue;
    }
    if (Date.now() > deadline) {
      throw new Error(`waited ${Math.round(timeoutMs / 1000)} s for ${lockPath}, held by process ${owner ?? "(unknown)"}`);
    }
    if (!waiting) onWait(owner);
    waiting = true;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, POLL_MS);
  }
  try {
    return work();
  } finally {
    const aside = `${lockPath}.released-${randomUUID()}`;
    renameSync(lockPath, aside);
    rmSync(aside, { recursive: true, force: true });
  }
}

/** @param {string} lockPath */
function tryAcquire(lockPath) {
  const staging = `${lockPath}.${process.pid}-${randomUUID()}`;
  mkdirSync(staging, { recursive: true });
  writeFileSync(path.join(staging, "owner"), String(process.pid));
  try {
    renameSync(staging, lockPath);
    return true;
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    if (code === "ENOTEMPTY" || code === "EEXIST") return false;
    throw error;
  }
}

/** @param {string} lockPath */
function ownerOf(lockPath) {
  try {
    const pid = Number(readFileSync(path.join(lockPath, "owner"), "utf8"));
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * @param {string} lockPath
 * @param {number} deadOwner
 */
function breakStale(lockPath, deadOwner) {
  const aside = `${lockPath}.stale-${randomUUID()}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return;
  }
  if (ownerOf(aside) !== deadOwner) {
    try {
      renameSync(aside, lockPath);
      return;
    } catch {
      // taken again meanwhile
    }
  }
  rmSync(aside, { recursive: true, force: true });
}

/** @param {number} pid */
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code === "EPERM";
  }
}
