import { randomUUID } from "node:crypto";
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { isAlive } from "./process-lock.ts";

/**
 * Who uses an embedded PostgreSQL, in a file beside its data folder, read and written only
 * under that folder's lock. The last user to leave stops the server, whichever process
 * started it, so a server outlives the command that started it while others use it.
 */
export interface EmbeddedPostgresUsers {
  /** Pid of the postmaster an svc process started; null when it was found running (not ours to stop). */
  postmaster: number | null;
  /** One entry per open handle; a process can hold several. */
  users: { pid: number; id: string }[];
}

/** The registry with the entries of processes that died (killed before they could leave) dropped. */
export function readUsers(file: string): EmbeddedPostgresUsers {
  let stored: Partial<EmbeddedPostgresUsers> = {};
  try {
    stored = JSON.parse(readFileSync(file, "utf8")) as Partial<EmbeddedPostgresUsers>;
  } catch {
    // none yet (or cut off by a crash mid-write, which the rename below rules out)
  }
  return {
    postmaster: typeof stored.postmaster === "number" ? stored.postmaster : null,
    users: (Array.isArray(stored.users) ? stored.users : []).filter((user) => isAlive(user.pid)),
  };
}

export function writeUsers(file: string, users: EmbeddedPostgresUsers): void {
  const temporary = `${file}.${process.pid}-${randomUUID()}`;
  writeFileSync(temporary, JSON.stringify(users));
  renameSync(temporary, file);
}
