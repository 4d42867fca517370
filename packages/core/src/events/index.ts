export * from "./event-catalog.ts";
export * from "./outbox.ts";
