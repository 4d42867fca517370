export { createMcpServer } from "./create-mcp-server.ts";
export type { McpRequestContext } from "./tool-definition.ts";
export { MCP_TOOLS } from "./tools/index.ts";
