export {
  ADDRESS_NOT_ALLOWED,
  WEBHOOK_URL_MAX_LENGTH,
  checkWebhookUrl,
  isLoopbackAddress,
  isPublicAddress,
  type WebhookUrlCheck,
} from "./address-guard.ts";
export { AddressNotAllowedError, createGuardedAgent, webhookAgent, type GuardedAgentOptions } from "./guarded-agent.ts";
export { RESPONSE_EXCERPT_BYTES, decodeExcerpt } from "./response-excerpt.ts";
export {
  WEBHOOK_TIMEOUT_MS,
  WEBHOOK_USER_AGENT,
  postWebhook,
  type AttemptOutcome,
  type PostWebhookInput,
} from "./post-webhook.ts";
export { DEFAULT_DELIVERY_SCHEDULE, type DeliverySchedule, type WebhookSettings } from "./delivery-schedule.ts";
export { signWebhook, webhookHeaders } from "./signature.ts";
