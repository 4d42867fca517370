import type { InboundAnswer, InboundRequest, NotificationHandler, NotifiedPull } from "@svc/core";
import { WITHINGS_NOTIFICATION_APPLIS, WITHINGS_USER_EVENTS_APPLI, type WithingsDataType } from "./measure-types.ts";
import { epochSeconds, isCalendarDay } from "./values.ts";

/** A notification is a handful of form fields; anything much larger is not one. */
const MAX_BODY_BYTES = 8 * 1024;
const DAY_MS = 86_400_000;

const DATA_TYPE_OF_APPLI: ReadonlyMap<number, WithingsDataType> = new Map(
  Object.entries(WITHINGS_NOTIFICATION_APPLIS).map(([dataType, appli]) => [appli, dataType as WithingsDataType]),
);

/**
 * Withings Notify: a form POST of `userid`, `appli` and the data's `startdate`/`enddate`
 * (unix seconds) or `date`, with no signature. A request is taken only when it has that
 * shape, and it only ever leads to a pull of the named category's window for a user id the
 * engine already knows (the body is never data). Withings checks the callback URL with a
 * HEAD or GET when subscribing: answered 200. A user event `unlink` gets a pull Withings
 * refuses (below); other user events and categories (bed in/out) are acknowledged without a pull. With no Withings application configured, 404.
 */
export const withingsNotifications: NotificationHandler = {
  handle(request: InboundRequest, keySets): InboundAnswer {
    if (keySets.length === 0) return { status: 404 };
    if (request.method === "HEAD" || request.method === "GET") return { status: 200 };
    if (request.method !== "POST") return { status: 405 };
    const fields = formFields(request);
    if (!fields) return { status: 400 };
    const userId = fields.get("userid");
    const appli = fields.get("appli");
    if (!userId || !/^\d{1,20}$/.test(userId) || !appli || !/^\d{1,4}$/.test(appli)) return { status: 400 };
    if (Number(appli) === WITHINGS_USER_EVENTS_APPLI && fields.get("action") === "unlink") return { status: 200, pulls: [unlinkPull(userId)] };
    const dataType = DATA_TYPE_OF_APPLI.get(Number(appli));
    if (!dataType) return { status: 200 };
    const window = windowOf(fields);
    if (!window) return { status: 400 };
    const pull: NotifiedPull = { providerUserId: userId, dataType, window };
    return { status: 200, pulls: [pull] };
  },
};

/**
 * The user unlinked the application at Withings. Notify is unsigned, so the body alone does
 * not end a grant: a one-hour pull of body measures, which Withings refuses with the revoked
 * grant, so the engine moves the connection to needs_reauth like any refused grant.
 */
function unlinkPull(userId: string): NotifiedPull {
  const now = Date.now();
  return { providerUserId: userId, dataType: "body", window: { start: new Date(now - 3_600_000), end: new Date(now) } };
}

/** The data's time span: `startdate`–`enddate` (inclusive seconds), or the UTC day of `date`. */
function windowOf(fields: ReadonlyMap<string, string>): { start: Date; end: Date } | null {
  const start = epochSeconds(fields.get("startdate"));
  const end = epochSeconds(fields.get("enddate"));
  if (start && end) return end >= start ? { start, end: new Date(end.getTime() + 1000) } : null;
  const date = fields.get("date");
  if (isCalendarDay(date)) {
    const day = Date.parse(`${date}T00:00:00Z`);
    return { start: new Date(day), end: new Date(day + DAY_MS) };
  }
  return null;
}

/** The form fields of the body: `application/x-www-form-urlencoded`, or `multipart/form-data`. */
function formFields(request: InboundRequest): Map<string, string> | null {
  if (request.rawBody.length === 0 || request.rawBody.length > MAX_BODY_BYTES) return null;
  const contentType = request.headers["content-type"] ?? "";
  const body = request.rawBody.toString("utf8");
  const boundary = /^multipart\/form-data;.*\bboundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (boundary) return multipartFields(body, boundary);
  return new Map(new URLSearchParams(body));
}

function multipartFields(body: string, boundary: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (const part of body.split(`--${boundary}`)) {
    const split = part.indexOf("\r\n\r\n");
    if (split < 0) continue;
    const name = /content-disposition:[^\r\n]*\bname="([^"]+)"/i.exec(part.slice(0, split))?.[1];
    if (name) fields.set(name, part.slice(split + 4).replace(/\r\n$/, ""));
  }
  return fields;
}
