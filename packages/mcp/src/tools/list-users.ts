import { callProcedure, procedureDescription, procedureInput } from "../router-procedures.ts";
import type { ToolDefinition } from "../tool-definition.ts";
import { fromPage } from "../tool-result.ts";

export const listUsers: ToolDefinition = {
  name: "list_users",
  title: "Users",
  description: `The tenant's users with their id (the user_id of every other tool) and external_ref. Tenant API key only. ${procedureDescription("users.listUsers")}`,
  inputSchema: procedureInput("users.listUsers"),
  async run(ctx, args) {
    return fromPage((await callProcedure(ctx.api, "users.listUsers", args)) as { data: unknown[]; next_cursor: string | null });
  },
};
