import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { McpTarget } from "./mcp-target.ts";

/** JSON-RPC "internal error": the instance could not be asked. */
const INTERNAL_ERROR = -32603;

/**
 * Forwards every message from stdin to the instance's /mcp and every answer back to stdout.
 * stdout carries protocol messages only; problems go to stderr.
 */
export async function forwardStdio(target: McpTarget): Promise<void> {
  const remote = new StreamableHTTPClientTransport(target.url, {
    requestInit: { headers: { authorization: `Bearer ${target.secret}` }, redirect: "manual" },
  });
  const local = new StdioServerTransport();

  local.onmessage = (message: JSONRPCMessage) => {
    remote.send(message).catch((error: Error) => {
      process.stderr.write(`svc mcp: ${error.message}\n`);
      if (isJSONRPCRequest(message)) {
        void local.send({ jsonrpc: "2.0", id: message.id, error: { code: INTERNAL_ERROR, message: `svc mcp: ${error.message}` } });
      }
    });
  };
  remote.onmessage = (message: JSONRPCMessage) => {
    // Later requests carry the negotiated MCP-Protocol-Version header, as the SDK's client does.
    if (isJSONRPCResultResponse(message) && typeof message.result.protocolVersion === "string") {
      remote.setProtocolVersion(message.result.protocolVersion);
    }
    void local.send(message);
  };
  remote.onerror = (error: Error) => process.stderr.write(`svc mcp: ${error.message}\n`);
  local.onclose = () => void remote.close();

  await remote.start();
  await local.start();
}
