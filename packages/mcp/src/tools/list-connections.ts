import { callProcedure, procedureDescription } from "../router-procedures.ts";
import type { ToolDefinition } from "../tool-definition.ts";
import { fromPage } from "../tool-result.ts";
import { perUserArguments } from "./record-list-tool.ts";
import { contextForUserRead, userIdFor } from "./user-scope.ts";

export const listConnections: ToolDefinition = {
  name: "list_connections",
  title: "Connections",
  description:
    "The providers a user connected, with status (active, needs_reauth, disconnected), last sync time and health (why it is broken, what to do). Check it when data looks missing or stale. " +
    procedureDescription("connections.listConnections"),
  inputSchema: perUserArguments("connections.listConnections"),
  async run(ctx, { user_id }) {
    const id = userIdFor(ctx, user_id);
    return fromPage((await callProcedure(contextForUserRead(ctx, id), "connections.listConnections", { id })) as { data: unknown[] });
  },
};
