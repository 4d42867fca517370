import { EVENT_CATALOG, type EventType } from "@svc/core";
import { z } from "zod";

const EVENT_TYPES = Object.keys(EVENT_CATALOG) as EventType[];

/** `data.written` -> `DataWritten`: the stem of the event's component names. */
function stemOf(type: EventType): string {
  return type
    .split(/[._]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
}

/** The component of an event's body (`DataWrittenEvent`) and of its data (`DataWrittenEventData`). */
export const eventComponentName = (type: EventType): string => `${stemOf(type)}Event`;
const dataComponentName = (type: EventType): string => `${stemOf(type)}EventData`;

/** A body every webhook endpoint can receive: `{id, type, timestamp, data, test?}` (Standard Webhooks payload). */
function eventBody(type: EventType): z.ZodType {
  return z
    .strictObject({
      id: z.uuid().describe("The event's id; equals the webhook-id header and stays the same on every retry, so it deduplicates."),
      type: z.literal(type),
      timestamp: z.iso.datetime().describe("When the event happened."),
      data: EVENT_CATALOG[type].data,
      test: z.literal(true).optional().describe("Present (true) only on events sent by POST /v1/webhooks/{webhook_id}/test."),
    })
    .describe(`The ${type} event. ${EVENT_CATALOG[type].sentWhen}`);
}

/** Every event's body and data schema, by component name, for components.schemas. */
export function eventComponents(): Record<string, z.ZodType> {
  const components: Record<string, z.ZodType> = {};
  for (const type of EVENT_TYPES) {
    components[dataComponentName(type)] = EVENT_CATALOG[type].data;
    components[eventComponentName(type)] = eventBody(type);
  }
  return components;
}

const SIGNATURE_HEADERS = [
  { name: "webhook-id", description: "The event's id (the body's id): the same on every retry." },
  { name: "webhook-timestamp", description: "Unix seconds when this attempt was signed; refuse one more than 5 minutes from your clock." },
  {
    name: "webhook-signature",
    description:
      "Space-separated entries `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed by the base64-decoded part of the endpoint's secret after `whsec_`; compare in constant time.",
  },
];

/**
 * The document's `webhooks`: one POST per event type, which svc sends to each endpoint
 * subscribed to it, signed as Standard Webhooks. The bodies refer to eventComponents().
 */
export function webhookPathItems(): Record<string, unknown> {
  const items: Record<string, unknown> = {};
  for (const type of EVENT_TYPES) {
    items[type] = {
      post: {
        operationId: `event-${type}`,
        tags: ["webhook events"],
        summary: `The ${type} event`,
        description: `${EVENT_CATALOG[type].sentWhen} Deliveries are at least once and not ordered; events are thin, never a health value.`,
        // svc calls the endpoint: no secret of the API; the receiver checks the signature headers.
        security: [],
        parameters: SIGNATURE_HEADERS.map(({ name, description }) => ({ name, in: "header", required: true, description, schema: { type: "string" } })),
        requestBody: {
          required: true,
          content: { "application/json": { schema: { $ref: `#/components/schemas/${eventComponentName(type)}` } } },
        },
        responses: {
          "2XX": { description: "Received. Any other answer, or none within 15 seconds, is a failed attempt: svc retries it later." },
        },
      },
    };
  }
  return items;
}
