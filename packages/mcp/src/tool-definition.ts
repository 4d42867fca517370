import type { ApiContext } from "@svc/api";
import type { ReaderPrincipal } from "@svc/core";
import type { z } from "zod";
import type { ToolRecords } from "./tool-result.ts";

/** What a tool call runs with: the REST context of this /mcp request and its caller. */
export interface McpRequestContext {
  /** The context REST builds, with the principal /mcp already resolved. */
  api: ApiContext & { principal: ReaderPrincipal };
  /** Told about failures that are not refusals (500s), so the host can log them. */
  onUnexpectedError?: ((error: unknown) => void) | undefined;
}

export interface ToolDefinition {
  name: string;
  title: string;
  /** What it returns and when to use it; written for an assistant that never read the spec. */
  description: string;
  inputSchema: z.ZodObject;
  /** The answer's schema (structuredContent); its field descriptions carry units and scales. */
  outputSchema: z.ZodObject;
  /** Offered to tenant API keys only: a user token's tool list leaves it out. */
  tenantOnly?: boolean;
  run(ctx: McpRequestContext, args: Record<string, unknown>): Promise<ToolRecords>;
}
