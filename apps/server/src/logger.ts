import { pino, type DestinationStream, type Logger } from "pino";

/** The process logger. Never give it a body, a secret or a health value. */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino({ level, base: { service: "svc" }, timestamp: pino.stdTimeFunctions.isoTime }, destination);
}
