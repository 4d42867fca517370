import { z } from "zod";
import { callProcedure, procedureDescription, procedureInput } from "../router-procedures.ts";
import type { ToolDefinition } from "../tool-definition.ts";
import { fromPage } from "../tool-result.ts";

type Page = { data: Array<{ id: string } & Record<string, unknown>>; next_cursor: string | null };

const LATEST_DELIVERIES = 10;

export const listWebhooks: ToolDefinition = {
  name: "list_webhooks",
  title: "Webhook endpoints",
  description:
    `The tenant's webhook endpoints and their health (status, failing_since, last_success_at). With deliveries=true each endpoint also lists its ${LATEST_DELIVERIES} latest deliveries (newest first). Tenant API key only. ` +
    procedureDescription("webhooks.listWebhooks"),
  inputSchema: procedureInput("webhooks.listWebhooks").extend({
    deliveries: z.boolean().default(false).describe(`Also list each endpoint's ${LATEST_DELIVERIES} latest deliveries.`),
  }),
  async run(ctx, { deliveries, ...args }) {
    const page = (await callProcedure(ctx.api, "webhooks.listWebhooks", args)) as Page;
    if (!deliveries) return fromPage(page);
    const endpoints = [];
    for (const endpoint of page.data) {
      const latest = (await callProcedure(ctx.api, "webhooks.listWebhookDeliveries", { webhook_id: endpoint.id, limit: LATEST_DELIVERIES })) as Page;
      endpoints.push({ ...endpoint, deliveries: latest.data });
    }
    return fromPage({ data: endpoints, next_cursor: page.next_cursor });
  },
};
