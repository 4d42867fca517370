import { z } from "zod";
import { callProcedure, procedureDescription, procedureInput, type ProcedurePath } from "../router-procedures.ts";
import type { ToolDefinition } from "../tool-definition.ts";
import { fromPage } from "../tool-result.ts";
import { userIdFor, ZUserIdArgument } from "./user-scope.ts";

/** The arguments of a per-user read: user_id, then the REST route's query parameters. */
export function perUserArguments(path: ProcedurePath): z.ZodObject {
  return z.object({ user_id: ZUserIdArgument, ...procedureInput(path).omit({ id: true }).shape });
}

/** A paged read of one user's records, served by one REST procedure of `GET /v1/users/{id}/...`. */
export function recordListTool(tool: { name: string; title: string; summary: string; procedure: ProcedurePath }): ToolDefinition {
  return {
    name: tool.name,
    title: tool.title,
    description: `${tool.summary} ${procedureDescription(tool.procedure)}`,
    inputSchema: perUserArguments(tool.procedure),
    async run(ctx, { user_id, ...args }) {
      const page = await callProcedure(ctx.api, tool.procedure, { ...args, id: userIdFor(ctx, user_id) });
      return fromPage(page as { data: unknown[]; next_cursor: string | null });
    },
  };
}
