import type { Server, ServerResponse } from "node:http";

/** How often the ended responses are swept from the set, in requests. */
const SWEEP_EVERY = 1024;
/** How often shutdown looks again at the handlers still running. */
const POLL_MS = 20;

/**
 * The requests whose handler has not ended its response yet. A client that hangs up closes its
 * connection at once, so the server closes before such a handler ends; the database must stay
 * open until it does, or the handler fails on a closed pool (and logs it).
 */
export class HandlersInFlight {
  private readonly open = new Set<ServerResponse>();
  private added = 0;

  constructor(server: Server) {
    const open = this.open;
    // One listener of each kind for the server, no closure per request.
    const forget = function (this: ServerResponse) {
      open.delete(this);
    };
    const forgetIfEnded = function (this: ServerResponse) {
      if (this.writableEnded) open.delete(this);
    };
    server.on("request", (_req, res: ServerResponse) => {
      open.add(res);
      res.once("finish", forget);
      res.once("close", forgetIfEnded);
      // A response closed by its client before its handler ended emits nothing when it does.
      if (++this.added % SWEEP_EVERY === 0) this.sweep();
    });
  }

  /** Waits until every handler ended its response, or `timeoutMs` passed; resolves with how many still run. */
  async settled(timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (this.sweep() > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    return this.open.size;
  }

  private sweep(): number {
    for (const res of this.open) if (res.writableEnded) this.open.delete(res);
    return this.open.size;
  }
}
