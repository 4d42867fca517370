import type { DbClient } from "./db-client.ts";

/** Deletes every delivery about a user, sent or not (their attempts go by cascade). */
export function deleteWebhookDeliveriesAboutUser(db: DbClient, userId: string) {
  return db.webhookDelivery.deleteMany({ where: { userId } });
}
