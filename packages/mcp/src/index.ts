export { createMcpServer } from "./create-mcp-server.ts";
export type { McpRequestContext } from "./tool-definition.ts";
export { MCP_TOOLS } from "./tools/index.ts";
export { BYTES_PER_TOKEN, RESULT_BUDGET_BYTES, RESULT_TOKEN_BUDGET } from "./results/result-budget.ts";
