import type { CoreDeps } from "../deps.ts";
import { beatReceivingUpload } from "./raw-object-repository.ts";

/** The upload sweep dropped this upload while it arrived (its heartbeat had lapsed): nothing of it is kept. */
export class UploadDropped extends Error {
  constructor() {
    super("The upload was dropped while it arrived: its heartbeat had lapsed.");
    this.name = "UploadDropped";
  }
}

export interface UploadHeartbeat {
  /** The body as it is; bytes arriving keep the upload alive. Throws UploadDropped at the next chunk once the upload was dropped. */
  watch(body: AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array>;
  /** From now on beat whether bytes arrive or not: this process works on the upload (storing, checking, committing). */
  busy(): void;
  stop(): void;
}

/**
 * Keeps a receiving upload alive while this process works on it: every `heartbeatMs` its
 * heartbeat is renewed, while its bytes arrive (a client that stops sending lets it lapse)
 * and once it is busy. A process that dies stops beating, and the upload stops counting as
 * in flight after `lapseMs`. A beat the database cannot take is skipped (the next one tries
 * again); a beat that finds the upload dropped makes the upload fail with UploadDropped.
 */
export function startUploadHeartbeat(deps: Pick<CoreDeps, "db" | "uploads">, rawObjectId: string): UploadHeartbeat {
  let progressed = false;
  let busy = false;
  let beating = false;
  let dropped = false;
  const timer = setInterval(() => {
    if (beating || dropped || !(busy || progressed)) return;
    progressed = false;
    beating = true;
    beatReceivingUpload(deps.db, rawObjectId)
      .then((alive) => {
        if (!alive) dropped = true;
      })
      .catch(() => undefined)
      .finally(() => {
        beating = false;
      });
  }, deps.uploads.heartbeatMs);
  timer.unref();

  return {
    async *watch(body) {
      for await (const chunk of body) {
        if (dropped) throw new UploadDropped();
        progressed = true;
        yield chunk;
      }
      busy = true;
    },
    busy: () => {
      busy = true;
    },
    stop: () => clearInterval(timer),
  };
}
