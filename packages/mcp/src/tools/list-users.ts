import { callProcedure, procedureDescription, procedureInput } from "../router-procedures.ts";
import type { ToolDefinition } from "../tool-definition.ts";
import { answerSchema } from "../results/output-schema.ts";
import { readRecords } from "../results/read-records.ts";
import { USER } from "../results/record-shapes.ts";
import type { RestPage } from "../results/rest-page.ts";

export const listUsers: ToolDefinition = {
  name: "list_users",
  title: "Users",
  description: `The tenant's users with their id (the user_id of every other tool) and external_ref (left out when none). Tenant API key only. Times are UTC. ${procedureDescription("users.listUsers")}`,
  inputSchema: procedureInput("users.listUsers"),
  outputSchema: answerSchema([USER]),
  tenantOnly: true,
  async run(ctx, args) {
    return readRecords({ shape: USER, read: async (input) => (await callProcedure(ctx.api, "users.listUsers", input)) as RestPage, args, order: "oldest_first" });
  },
};
