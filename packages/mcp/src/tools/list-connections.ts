import { callProcedure, procedureDescription } from "../router-procedures.ts";
import type { ToolDefinition } from "../tool-definition.ts";
import { answerSchema } from "../results/output-schema.ts";
import { capRecords } from "../results/read-records.ts";
import { CONNECTION } from "../results/record-shapes.ts";
import { perUserArguments } from "./record-list-tool.ts";
import { contextForUserRead, userIdFor } from "./user-scope.ts";

export const listConnections: ToolDefinition = {
  name: "list_connections",
  title: "Connections",
  description:
    "The providers a user connected, with status (active, needs_reauth, disconnected), last sync time and health (why it is broken, what to do). Check it when data looks missing or stale. Times are UTC. " +
    procedureDescription("connections.listConnections"),
  inputSchema: perUserArguments("connections.listConnections"),
  outputSchema: answerSchema([CONNECTION]),
  async run(ctx, { user_id }) {
    const id = userIdFor(ctx, user_id);
    const page = (await callProcedure(contextForUserRead(ctx, id), "connections.listConnections", { id })) as { data: Array<Record<string, unknown>> };
    return capRecords(CONNECTION, page.data);
  },
};
