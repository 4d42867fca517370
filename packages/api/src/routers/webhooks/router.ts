import { router } from "../../trpc.ts";
import { createWebhook } from "./create-webhook.ts";
import { deleteWebhook } from "./delete-webhook.ts";
import { getWebhook } from "./get-webhook.ts";
import { getWebhookDelivery } from "./get-webhook-delivery.ts";
import { listWebhookDeliveries } from "./list-webhook-deliveries.ts";
import { listWebhooks } from "./list-webhooks.ts";
import { replayWebhookDelivery } from "./replay-webhook-delivery.ts";
import { retryWebhookDelivery } from "./retry-webhook-delivery.ts";
import { rotateWebhookSecret } from "./rotate-webhook-secret.ts";
import { testWebhook } from "./test-webhook.ts";
import { updateWebhook } from "./update-webhook.ts";

export const webhooksRouter = router({
  createWebhook,
  listWebhooks,
  getWebhook,
  updateWebhook,
  deleteWebhook,
  rotateWebhookSecret,
  testWebhook,
  listWebhookDeliveries,
  getWebhookDelivery,
  retryWebhookDelivery,
  replayWebhookDelivery,
});
