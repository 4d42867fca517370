import { secretKind } from "@svc/core";
import type { McpLauncherEnv } from "../env.ts";

const DEFAULT_INSTANCE_URL = "http://localhost:8080";

/** Where `svc mcp` forwards to, and with which secret. */
export interface McpTarget {
  url: URL;
  secret: string;
}

/** A setting `svc mcp` cannot start with; the message names the variable and the reason. */
export class McpTargetError extends Error {}

function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

/**
 * The instance's /mcp URL: SVC_MCP_URL, else the instance public URL, else
 * http://localhost:8080; `/mcp` appended unless the path already ends with it; https
 * required except on a loopback host.
 */
export function resolveMcpUrl(env: McpLauncherEnv): URL {
  const name = env.SVC_MCP_URL ? "SVC_MCP_URL" : env.SVC_PUBLIC_URL ? "SVC_PUBLIC_URL" : "the default URL";
  const raw = env.SVC_MCP_URL ?? env.SVC_PUBLIC_URL ?? DEFAULT_INSTANCE_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new McpTargetError(`${name} is not a URL.`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new McpTargetError(`${name} must be an https URL.`);
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname)) {
    throw new McpTargetError(`${name} must use https (plain http is allowed only for localhost, 127.0.0.1 and [::1]).`);
  }
  if (url.username || url.password) throw new McpTargetError(`${name} must not carry credentials: put the secret in SVC_MCP_KEY.`);
  const path = url.pathname.replace(/\/+$/, "");
  url.pathname = path.endsWith("/mcp") ? path : `${path}/mcp`;
  url.hash = "";
  return url;
}

/** SVC_MCP_KEY: a tenant API key or a user token (with scope read; the instance checks that). */
export function resolveMcpSecret(env: McpLauncherEnv): string {
  const secret = env.SVC_MCP_KEY?.trim();
  if (!secret) throw new McpTargetError("SVC_MCP_KEY is required: a tenant API key or a user token with scope read.");
  const kind = secretKind(secret);
  if (kind === "adminKey") throw new McpTargetError("SVC_MCP_KEY is an instance admin key; /mcp takes a tenant API key or a user token with scope read.");
  if (kind === undefined) throw new McpTargetError("SVC_MCP_KEY is not a svc tenant API key (svc_sk_...) or user token (svc_ut_...).");
  return secret;
}

export function resolveMcpTarget(env: McpLauncherEnv): McpTarget {
  return { url: resolveMcpUrl(env), secret: resolveMcpSecret(env) };
}
