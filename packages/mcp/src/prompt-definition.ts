import type { z } from "zod";

export type PromptArguments = Record<string, string | undefined>;

export interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  /** Every argument is an optional string (MCP prompt arguments are strings). */
  arguments: Record<string, z.ZodOptional<z.ZodType<string>>>;
  /** The user message the assistant receives. */
  text(args: PromptArguments): string;
}
