export { createEmptyTestDatabase, createTestDatabase, connectSql } from "./database.ts";
export { fixturesDir, fixturePath } from "./fixtures.ts";
export {
  closedPort,
  replies,
  startRawReceiver,
  startWebhookReceiver,
  waitUntil,
  type ReceivedWebhook,
  type WebhookReceiver,
  type WebhookReply,
} from "./webhook-receiver.ts";
export { appendRunLog, recordSecrets, recordSecretsIn, recordSecretsOfEnv } from "./run-logs.ts";
export { findLeaks, prepareRunLogsDir, type Leak } from "./leak-scan.ts";
export {
  browserAvailable,
  CHROMIUM_PATH,
  expectAccessible,
  expectFitsWidth,
  launchBrowser,
  saveScreenshot,
  VIEWPORTS,
  type ViewportName,
} from "./browser.ts";
