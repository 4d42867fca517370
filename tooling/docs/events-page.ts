import { EVENT_CATALOG } from "@svc/core";
import { z } from "zod";

type JsonSchema = { type?: string | string[]; anyOf?: JsonSchema[]; enum?: unknown[]; format?: string; items?: JsonSchema; additionalProperties?: JsonSchema | boolean };

function typeOf(schema: JsonSchema): string {
  if (schema.anyOf) return schema.anyOf.map(typeOf).join(" or ");
  if (schema.enum) return schema.enum.map((value) => `\`${JSON.stringify(value)}\``).join(", ");
  if (schema.type === "array") return `array of ${schema.items ? typeOf(schema.items) : "any"}`;
  if (schema.type === "object" && typeof schema.additionalProperties === "object") return `object of ${typeOf(schema.additionalProperties)}`;
  const type = Array.isArray(schema.type) ? schema.type.join(" or ") : (schema.type ?? "any");
  return schema.format ? `${type} (${schema.format})` : type;
}

/**
 * docs/reference/events.md: every event a webhook endpoint can receive, with its data fields
 * and the sample the test route sends, read from the event catalog in packages/core.
 */
export function eventsPage(notice: string): string {
  const lines = [
    "# Webhook events",
    "",
    `${notice} The values come from \`packages/core/src/events/event-catalog.ts\`.`,
    "[Webhooks](webhooks.md) tells how events are delivered and signed.",
    "",
    "Every delivery's body is one event: `{id, type, timestamp, data}` (and `test: true` when the test",
    "route sent it). `id` equals the `webhook-id` header. Events are thin: ids, names, counts and days,",
    "never a health value. An endpoint with no `event_types` also receives types added later, so a",
    "handler keeps a default branch.",
    "",
  ];
  for (const [type, event] of Object.entries(EVENT_CATALOG)) {
    const schema = z.toJSONSchema(event.data, { io: "output" }) as { properties?: Record<string, JsonSchema>; required?: string[] };
    lines.push(`## ${type}`, "", event.sentWhen, "", "| Field | Type | Always present |", "| --- | --- | --- |");
    for (const [name, field] of Object.entries(schema.properties ?? {})) {
      lines.push(`| \`${name}\` | ${typeOf(field)} | ${schema.required?.includes(name) ? "yes" : "no"} |`);
    }
    const sample = { id: "00000000-0000-4000-8000-0000000000e1", type, timestamp: "2026-01-02T03:04:05.000Z", data: event.sample };
    lines.push("", "```json", JSON.stringify(sample, null, 2), "```", "");
  }
  return lines.join("\n");
}
