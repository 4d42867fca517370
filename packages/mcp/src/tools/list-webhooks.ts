import { z } from "zod";
import { callProcedure, procedureDescription, procedureInput, procedureItem } from "../router-procedures.ts";
import type { ToolDefinition } from "../tool-definition.ts";
import { answerSchema } from "../results/output-schema.ts";
import { readRecords } from "../results/read-records.ts";
import type { RecordShape } from "../results/record-shape.ts";
import { WEBHOOK_ENDPOINT } from "../results/record-shapes.ts";
import type { Json, RestPage } from "../results/rest-page.ts";

const LATEST_DELIVERIES = 10;

/** An endpoint, with (deliveries=true) its latest deliveries as REST lists them. */
const ENDPOINT_WITH_DELIVERIES: RecordShape = {
  ...WEBHOOK_ENDPOINT,
  schema: WEBHOOK_ENDPOINT.schema.extend({
    deliveries: z
      .array(procedureItem("webhooks.listWebhookDeliveries"))
      .optional()
      .describe(`With deliveries=true: the endpoint's ${LATEST_DELIVERIES} latest deliveries, newest first.`),
  }),
};

export const listWebhooks: ToolDefinition = {
  name: "list_webhooks",
  title: "Webhook endpoints",
  description:
    `The tenant's webhook endpoints and their health (status, failing_since, last_success_at). With deliveries=true each endpoint also lists its ${LATEST_DELIVERIES} latest deliveries (newest first). Tenant API key only. Times are UTC. ` +
    procedureDescription("webhooks.listWebhooks"),
  inputSchema: procedureInput("webhooks.listWebhooks").extend({
    deliveries: z.boolean().default(false).describe(`Also list each endpoint's ${LATEST_DELIVERIES} latest deliveries.`),
  }),
  outputSchema: answerSchema([ENDPOINT_WITH_DELIVERIES]),
  tenantOnly: true,
  async run(ctx, { deliveries, ...args }) {
    const read = async (input: Json): Promise<RestPage> => {
      const page = (await callProcedure(ctx.api, "webhooks.listWebhooks", input)) as RestPage;
      if (!deliveries) return page;
      const endpoints = [];
      for (const endpoint of page.data) {
        const latest = (await callProcedure(ctx.api, "webhooks.listWebhookDeliveries", { webhook_id: endpoint.id, limit: LATEST_DELIVERIES })) as RestPage;
        endpoints.push({ ...endpoint, deliveries: latest.data });
      }
      return { data: endpoints, next_cursor: page.next_cursor };
    };
    return readRecords({ shape: ENDPOINT_WITH_DELIVERIES, read, args, order: "oldest_first" });
  },
};
