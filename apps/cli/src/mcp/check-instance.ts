import { McpTargetError, type McpTarget } from "./mcp-target.ts";

const CHECK_TIMEOUT_MS = 15_000;

/** The problem detail of a refusal, when the answer is a problem body. */
async function detailOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { detail?: unknown };
    return typeof body.detail === "string" ? ` (${body.detail})` : "";
  } catch {
    return "";
  }
}

/**
 * Sends one MCP ping before forwarding anything, so a wrong URL or secret stops `svc mcp`
 * at start with the reason instead of failing the assistant's first call.
 */
export async function checkInstance(target: McpTarget): Promise<void> {
  let response: Response;
  try {
    response = await fetch(target.url, {
      method: "POST",
      redirect: "manual",
      headers: {
        authorization: `Bearer ${target.secret}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "ping" }),
      signal: AbortSignal.timeout(CHECK_TIMEOUT_MS),
    });
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new McpTargetError(`Cannot reach ${target.url.href}: ${cause}`);
  }
  if (response.status >= 300 && response.status < 400) {
    const location = response.headers.get("location");
    throw new McpTargetError(`${target.url.href} answered with a redirect${location ? ` to ${location}` : ""}; redirects are not followed: set SVC_MCP_URL to the final URL.`);
  }
  if (response.status === 401) throw new McpTargetError(`The instance at ${target.url.origin} does not accept SVC_MCP_KEY: it is wrong, revoked or expired.`);
  if (response.status === 403) throw new McpTargetError(`The instance at ${target.url.origin} refused SVC_MCP_KEY${await detailOf(response)}.`);
  if (response.status === 404) throw new McpTargetError(`No MCP server at ${target.url.href}: check SVC_MCP_URL.`);
  if (!response.ok) throw new McpTargetError(`${target.url.href} answered ${response.status}${await detailOf(response)}.`);
  await response.body?.cancel();
}
