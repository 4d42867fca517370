// The undici Agent every webhook request goes through. Each new connection is opened as
// plain TCP first; its remote address (after DNS resolution, also for IP-literal hosts,
// whose names never reach a DNS lookup) is checked before a single byte is sent, and only
// then is TLS started on that same socket. A pooled keep-alive connection was checked when
// it was opened. undici's `request` never follows redirects.
import type { Socket } from "node:net";
import { Agent, buildConnector } from "undici";
import { ADDRESS_NOT_ALLOWED, isLoopbackAddress, isPublicAddress } from "./address-guard.ts";

export const PLAIN_HTTP_NOT_ALLOWED =
  "address not allowed: plain http is allowed only to a loopback address with SVC_WEBHOOK_ALLOW_PRIVATE=true";

const CONNECT_TIMEOUT_MS = 10_000;

/** A connection refused by the guard; its message is the attempt's error text. */
export class AddressNotAllowedError extends Error {
  readonly code = "SVC_ADDRESS_NOT_ALLOWED";

  constructor(message: string) {
    super(message);
    this.name = "AddressNotAllowedError";
  }
}

export type GuardedAgentOptions = {
  /** SVC_WEBHOOK_ALLOW_PRIVATE: lifts the address rule and allows http to loopback. */
  allowPrivate: boolean;
  /** Extra trusted certificates: only for tests with a local https receiver. */
  ca?: string | Buffer;
};

export function createGuardedAgent(options: GuardedAgentOptions): Agent {
  const openTcp = buildConnector({ timeout: CONNECT_TIMEOUT_MS });
  const startTls = buildConnector({ timeout: CONNECT_TIMEOUT_MS, ...(options.ca ? { ca: options.ca } : {}) });

  const connect: buildConnector.connector = (target, callback) => {
    const https = target.protocol === "https:";
    const port = target.port || (https ? "443" : "80");
    const tcpTarget = { hostname: target.hostname, host: target.host, protocol: "http:", port };
    openTcp(tcpTarget, (error, socket) => {
      if (error) return callback(error, null);
      const refusal = refusalFor(socket, https, options.allowPrivate);
      if (refusal !== null) {
        socket.destroy();
        return callback(new AddressNotAllowedError(refusal), null);
      }
      if (!https) return callback(null, socket);
      startTls({ ...target, port, httpSocket: socket }, callback);
    });
  };

  return new Agent({ connect });
}

function refusalFor(socket: Socket, https: boolean, allowPrivate: boolean): string | null {
  const address = socket.remoteAddress ?? "";
  if (!allowPrivate && !isPublicAddress(address)) return ADDRESS_NOT_ALLOWED;
  if (!https && !(allowPrivate && isLoopbackAddress(address))) return PLAIN_HTTP_NOT_ALLOWED;
  return null;
}

const shared = new Map<boolean, Agent>();

/** The process-wide guarded agent for one value of SVC_WEBHOOK_ALLOW_PRIVATE. */
export function webhookAgent(allowPrivate: boolean): Agent {
  let agent = shared.get(allowPrivate);
  if (agent === undefined) {
    agent = createGuardedAgent({ allowPrivate });
    shared.set(allowPrivate, agent);
  }
  return agent;
}
