import { readFileSync } from "node:fs";
import { fixturePath } from "@svc/testing";
import fc from "fast-check";
import type { JsonSchema, Operation, Parameter } from "./operations.ts";

/** What the fuzzer knows of the service it calls: secrets to send and ids of existing objects. */
export interface Fixtures {
  /** Authorization header values by credential name; undefined sends none. */
  credentials: Record<string, string | undefined>;
  /** Ids of existing objects by the path or body field naming them (`id`, `tag_id`, `provider`...). */
  known: Record<string, string[]>;
}

export interface FuzzRequest {
  method: string;
  /** Path and query, percent-encoded as sent. */
  url: string;
  credential: string;
  headers: Record<string, string>;
  body: Uint8Array | undefined;
}

/** Runs of one character written as `<x × n>`, then cut: long values stay readable. */
function shorten(text: string): string {
  const runs = text.replace(/(.)\1{19,}/gs, (run: string, c: string) => `<${c} × ${run.length}>`);
  return runs.length > 600 ? `${runs.slice(0, 600)}… (${text.length} characters)` : runs;
}

/** Enough to replay a request by hand: body bytes as latin1 text, long runs and values shortened. */
export function describeRequest(request: FuzzRequest): string {
  const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, shorten(value)]));
  const body = request.body === undefined ? "" : ` body ${JSON.stringify(shorten(Buffer.from(request.body).toString("latin1")))}`;
  return `${request.method} ${shorten(request.url)} as ${request.credential} headers ${JSON.stringify(headers)}${body}`;
}

const HUGE = "x".repeat(1_100_000);
/** Long, but short enough for Node's 16 KiB request head. */
const LONG_URL_PART = "a".repeat(8_000);
/**
 * Deeply nested JSON, written into the body text where its marker string stands: a value
 * this deep would overflow the stack of JSON.stringify and of fast-check's reporting.
 */
const DEEP_JSON: Record<string, string> = {
  "<deep array 10000>": `${"[".repeat(10_000)}${"]".repeat(10_000)}`,
  "<deep array 100000>": `${"[".repeat(100_000)}${"]".repeat(100_000)}`,
  "<deep object 5000>": `${'{"a":'.repeat(5_000)}1${"}".repeat(5_000)}`,
};

/** JSON text of a body, deep nesting markers replaced. */
export function jsonText(value: unknown): string {
  let text = JSON.stringify(value) ?? "";
  for (const [marker, json] of Object.entries(DEEP_JSON)) text = text.replaceAll(JSON.stringify(marker), json);
  return text;
}

/** URL parts already percent-encoded: bad UTF-8, NUL, an encoded slash, odd ids. */
const RAW_URL_GARBAGE = [
  "%C3%28", "%FF", "%E0%80%80", "%ED%A0%80", "%F4%90%80%80", "%C0%AF", "%00", "a%00b", "%2F", "%25", "%", "%G1", "%E2%82",
  "0", "-1", "null", "undefined", "true", "%20", "00000000-0000-0000-0000-000000000000", "ffffffff-ffff-ffff-ffff-ffffffffffff",
  "FFFFFFFF-FFFF-4FFF-BFFF-FFFFFFFFFFFF", "{id}", "%7Bid%7D", "1e999", "NaN", LONG_URL_PART,
];

/** Plain query values worth trying on any parameter. */
const BOUNDARY_VALUES = [
  "", "0", "-1", "1", "1000", "1001", "99999999999999999999999", "1e308", "-0", "1.5", "0x10", " 5", "abc", "true", "[]", "{}",
  "2026-03-01", "2026-02-30", "2026-13-01", "0000-01-01", "+275760-09-13T00:00:00Z", "2026-03-01T25:00:00Z", "2026-03-01T00:00:00",
  "yesterday", "\u0000", "💓", "\u202Eevil", "ÅÄÖ", "a".repeat(3_000),
];

/** Plausible values by name, for strings whose schema says little (a free string). */
const HINTS: Record<string, string[]> = {
  type: ["heart_rate", "steps", "body_mass", "sleep_session", "HKQuantityTypeIdentifierHeartRate", "Observation"],
  metric: ["heart_rate", "steps", "sleep_session", "workout"],
  scope: ["all", "heart_rate", "vitals", "sleep", "sleep_session", "workout", "daily_summary"],
  start: ["2026-03-01", "2026-03-01T00:00:00Z", "2020-01-01T00:00:00+02:00"],
  end: ["2026-03-10", "2026-03-10T00:00:00Z", "2030-01-01T00:00:00Z"],
  tz: ["Europe/Berlin", "UTC", "+02:00", "Mars/Olympus"],
  code: ["http://loinc.org|8867-4", "8867-4", "|8867-4", "http://unknown|1"],
  category: ["vital-signs", "activity", "sleep", "laboratory"],
  cursor: ["eyJhIjoxfQ", "AAAA", "not-a-cursor"],
  kind: ["illness", "custom", "sleep"],
  label: ["fuzz"],
  name: ["fuzz"],
  external_ref: ["fuzz-ref"],
  url: ["https://hooks.example.com/fuzz", "http://127.0.0.1:9/hook", "ftp://x", "not a url"],
  timezone: ["Europe/Berlin", "Nowhere/Land"],
  passcode: ["123456"],
  recipient: ["fuzz"],
  value: ["1"],
  scopes: ["read", "upload", "connect"],
};

function types(schema: JsonSchema): string[] {
  if (schema.type === undefined) return [];
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

function isoAround(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString();
}

/** A value the schema accepts, mostly: real ids and plausible strings where the schema alone would give noise. */
export function validValue(schema: JsonSchema, name: string, fixtures: Fixtures, depth = 0): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return fc.oneof(...branches.map((branch) => validValue(branch, name, fixtures, depth)));
  if (schema.allOf?.[0]) return validValue(schema.allOf[0], name, fixtures, depth);
  const [type] = types(schema);
  switch (type) {
    case "null":
      return fc.constant(null);
    case "boolean":
      return fc.boolean();
    case "integer":
    case "number": {
      const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1_000);
      const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 100_000);
      return fc.oneof(fc.constantFrom(min, max), fc.integer({ min: Math.ceil(Math.max(min, -1e9)), max: Math.floor(Math.min(max, 1e9)) }));
    }
    case "array": {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.min(schema.maxItems ?? minLength + 3, minLength + 3);
      return fc.array(validValue(schema.items ?? {}, name, fixtures, depth + 1), { minLength, maxLength });
    }
    case "object": {
      if (depth > 4 || !schema.properties) return fc.constant({});
      const properties = Object.fromEntries(Object.entries(schema.properties).map(([key, child]) => [key, validValue(child, key, fixtures, depth + 1)]));
      return fc.record(properties, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
    }
    case "string":
      return validString(schema, name, fixtures);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function validString(schema: JsonSchema, name: string, fixtures: Fixtures): fc.Arbitrary<string> {
  const known = fixtures.known[name];
  if (known?.length) return fc.constantFrom(...known);
  if (schema.format === "uuid") return fc.uuid();
  if (schema.format === "date-time") return fc.integer({ min: -400, max: 400 }).map(isoAround);
  if (schema.format === "date") return fc.constantFrom("2026-03-01", "2026-02-28");
  if (schema.format === "uri" || schema.format === "url") return fc.constantFrom(...HINTS.url!);
  const hints = HINTS[name];
  if (hints) return fc.constantFrom(...hints);
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 24, minLength + 24));
  if (schema.pattern) {
    try {
      const pattern = new RegExp(schema.pattern);
      return fc.stringMatching(pattern).filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? Infinity));
    } catch {
      // Not a JavaScript regular expression: a plain string then.
    }
  }
  return fc.string({ minLength, maxLength });
}

/** Values of the wrong type or size for any field. */
const badValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    null, "", 0, -1, -0, 1.5, 1e308, -1e308, 2 ** 53 + 2, true, false, [], {}, [null], { "": null }, "null", "NaN",
    "\u0000", "\uD800", "\uFFFF", "💓", "\u202Eevil", "a".repeat(10_000), "2026-02-30T00:00:00Z", "+275760-09-13T00:00:00Z",
    JSON.parse('{"__proto__":{"polluted":true}}'), JSON.parse('{"constructor":{"prototype":{"polluted":true}}}'),
  ),
  fc.constantFrom(HUGE, ...Object.keys(DEEP_JSON)),
  fc.string({ maxLength: 16 }),
  fc.double(),
  fc.jsonValue({ maxDepth: 2 }),
);

type JsonPath = Array<string | number>;

/** Every path into a JSON value, the root excluded. */
function pathsOf(value: unknown, prefix: JsonPath = []): JsonPath[] {
  if (Array.isArray(value)) return value.flatMap((child, i) => [[...prefix, i], ...pathsOf(child, [...prefix, i])]);
  if (value && typeof value === "object") return Object.entries(value).flatMap(([key, child]) => [[...prefix, key], ...pathsOf(child, [...prefix, key])]);
  return [];
}

function setAt(root: unknown, path: JsonPath, replacement: unknown, remove: boolean): void {
  let node = root as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) node = node[step] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (remove && !Array.isArray(node)) delete node[last];
  else node[last] = replacement;
}

/** A valid-ish JSON body with at most one change: a field's value replaced, a field removed, or a field added. */
function jsonBody(schema: JsonSchema | undefined, fixtures: Fixtures): fc.Arbitrary<unknown> {
  const valid = schema ? validValue(schema, "", fixtures) : fc.constant({});
  return fc
    .tuple(valid, fc.constantFrom("none", "replace", "remove", "extra"), fc.nat(), badValue, fc.string({ maxLength: 12 }))
    .map(([value, how, at, replacement, extraKey]) => {
      const body = structuredClone(value);
      const paths = pathsOf(body);
      const path = paths[at % Math.max(paths.length, 1)];
      if (how === "extra" && body && typeof body === "object") (body as Record<string, unknown>)[extraKey || "extra"] = replacement;
      else if (how === "replace" && path) setAt(body, path, replacement, false);
      else if (how === "remove" && path) setAt(body, path, undefined, true);
      else if (how === "replace") return replacement;
      return body;
    });
}

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, "utf8"));

/** Bytes that are not valid UTF-8, placed inside a JSON string. */
const badUtf8Json: fc.Arbitrary<Uint8Array> = fc
  .tuple(fc.constantFrom([0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0xe2, 0x82], [0xfe, 0xff]), fc.constantFrom("label", "external_ref", "url", "kind", "x"))
  .map(([bytes, key]) => new Uint8Array(Buffer.concat([Buffer.from(`{"${key}":"a`), Buffer.from(bytes), Buffer.from('b"}')])));

const JSON_TYPE = "application/json";
const WRONG_CONTENT_TYPES = [
  "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/xml", "application/jsonx",
  "application/json; charset=latin1", "application/json; charset=utf-16", "application/problem+json", "*/*", "application/",
  "application/x-ndjson", "application/gzip", "text/csv", "",
];

interface BodyChoice {
  body: Uint8Array | undefined;
  contentType: string | undefined;
  contentEncoding?: string;
}

/** Bodies for a JSON route: mostly valid-ish JSON, then raw damage, wrong content types, encodings and sizes. */
function jsonRouteBody(schema: JsonSchema | undefined, fixtures: Fixtures): fc.Arbitrary<BodyChoice> {
  const json = jsonBody(schema, fixtures);
  return fc.oneof(
    { weight: 8, arbitrary: json.map((value) => ({ body: utf8(jsonText(value)), contentType: JSON_TYPE })) },
    {
      weight: 2,
      arbitrary: fc.constantFrom("", "{", '{"a":', "nul", "{'a':1}", "[]", "null", "1", '"s"', "true", "\u0000", "\uFEFF{}", '{"a":1}{"b":2}', `{"a":${"1".repeat(400)}}`).map((text) => ({ body: utf8(text), contentType: JSON_TYPE })),
    },
    { weight: 1, arbitrary: badUtf8Json.map((body) => ({ body, contentType: JSON_TYPE })) },
    { weight: 1, arbitrary: fc.tuple(json, fc.constantFrom(...WRONG_CONTENT_TYPES)).map(([value, contentType]) => ({ body: utf8(jsonText(value)), contentType })) },
    { weight: 1, arbitrary: json.map((value) => ({ body: utf8(jsonText(value)), contentType: undefined })) },
    {
      weight: 1,
      arbitrary: fc.tuple(json, fc.constantFrom("gzip", "deflate", "br", "compress", "identity", "x-unknown")).map(([value, contentEncoding]) => ({ body: utf8(jsonText(value)), contentType: JSON_TYPE, contentEncoding })),
    },
    { weight: 1, arbitrary: fc.constant({ body: utf8(JSON.stringify({ padding: HUGE })), contentType: JSON_TYPE }) },
    { weight: 1, arbitrary: fc.constant({ body: undefined, contentType: undefined }) },
  );
}

/** Bodies for an upload route: small texts of the route's formats, bytes, gzip and zip headers with junk, wrong types. */
function uploadBody(contentTypes: string[]): fc.Arbitrary<BodyChoice> {
  const bytes = fc.oneof(
    fc.constantFrom(
      '{"kind":"quantity","uuid":"A","type":"HKQuantityTypeIdentifierHeartRate","value":60,"unit":"count/min","start":"2024-03-01T08:00:00Z"}',
      '{"recordType":"Steps","metadata":{"id":"r1"},"startTime":"2024-05-01T06:00:00Z","endTime":"2024-05-01T07:00:00Z","count":10}',
      "# zepp:ACTIVITY\ndate,steps\n2023-01-04,5351",
      "<HealthData><Record type=\"HKQuantityTypeIdentifierHeartRate\" value=\"60\"/></HealthData>",
      "",
      "\u0000\u0000",
    ).map(utf8),
    fc.uint8Array({ maxLength: 64 }),
    fc.uint8Array({ maxLength: 32 }).map((junk) => new Uint8Array([0x1f, 0x8b, 0x08, 0x00, ...junk])),
    fc.uint8Array({ maxLength: 32 }).map((junk) => new Uint8Array([0x50, 0x4b, 0x03, 0x04, ...junk])),
    fc.constantFrom([0xff, 0xfe, 0x0a], [0xc3, 0x28, 0x0a], [0xed, 0xa0, 0x80]).map((b) => new Uint8Array(b)),
  );
  return fc.record({
    body: fc.option(bytes, { freq: 8, nil: undefined }),
    contentType: fc.option(fc.constantFrom(...contentTypes, ...WRONG_CONTENT_TYPES), { freq: 8, nil: undefined }),
  });
}

/** One valid body per upload route (Content-Type and text), so that tame uploads are accepted. */
const VALID_UPLOADS: Record<string, [string, string]> = {
  "apple-health": [
    "application/x-ndjson",
    '{"kind":"quantity","uuid":"A","type":"HKQuantityTypeIdentifierHeartRate","value":60,"unit":"count/min","start":"2024-03-01T08:00:00Z"}',
  ],
  "health-connect": [
    "application/x-ndjson",
    JSON.stringify({
      recordType: "Steps",
      metadata: { id: "r1", dataOrigin: "com.sec.android.app.shealth", lastModifiedTime: "2024-05-01T08:00:00Z", device: { manufacturer: "Samsung", model: "SM-R930", type: 1 }, recordingMethod: 2, clientRecordId: "c1" },
      startTime: "2024-05-01T06:00:00Z",
      startZoneOffset: "+02:00",
      endTime: "2024-05-01T07:00:00Z",
      endZoneOffset: "+02:00",
      count: 10,
    }),
  ],
  xiaomi: ["text/csv", "# zepp:ACTIVITY\n# timezone: Europe/Berlin\ndate,steps,distance,runDistance,calories\n2023-01-04,5351,4160,0,202"],
  "activity-files": ["text/plain", readFileSync(fixturePath("togeojson_missing_hr.gpx")).toString("base64")],
  bluetooth: ["application/x-ndjson", '{"characteristic":"2a37","value":"0048","received_at":"2026-03-01T10:00:00Z","device":"HRM-Pro","device_id":"F1:22:33:44:55:66"}'],
};

/** A query or path value as sent: plain text percent-encoded, or raw (already encoded) garbage. */
function encoded(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return "%ED%A0%80"; // a lone surrogate has no UTF-8; send its raw bytes instead
  }
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value) ?? "";
}

function pathValue(parameter: Parameter, fixtures: Fixtures): fc.Arbitrary<string> {
  const known = fixtures.known[parameter.name] ?? [];
  return fc.oneof(
    ...(known.length > 0 ? [{ weight: 8, arbitrary: fc.constantFrom(...known).map(encoded) }] : []),
    { weight: 2, arbitrary: validValue(parameter.schema, parameter.name, fixtures).map((v) => encoded(asText(v))) },
    { weight: 1, arbitrary: fc.uuid().map(encoded) },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_URL_GARBAGE) },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s !== "." && s !== "..").map(encoded) },
  );
}

function queryValue(parameter: Parameter, fixtures: Fixtures): fc.Arbitrary<string[]> {
  const one = fc.oneof(
    { weight: 5, arbitrary: validValue(parameter.schema, parameter.name, fixtures).map((v) => encoded(asText(v))) },
    { weight: 3, arbitrary: fc.constantFrom(...BOUNDARY_VALUES).map(encoded) },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_URL_GARBAGE) },
    { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map(encoded) },
  );
  // Arrays by repeated keys, sometimes.
  return fc.array(one, { minLength: 1, maxLength: 2 });
}

/** Idempotency-Key and X-Request-Id at and past their limits; only characters fetch can send. */
const headerCharacter = fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff })).map((c) => String.fromCharCode(c));
const headerText = fc.string({ unit: headerCharacter, maxLength: 40 }).map((s) => s.trim());
const idempotencyKey = fc.option(fc.oneof(fc.constantFrom("", "k", "a".repeat(255), "a".repeat(256), "a".repeat(8_000), "ÿ", "key with spaces"), fc.uuid(), headerText), { freq: 3, nil: undefined });
const requestIdHeader = fc.option(fc.oneof(fc.constantFrom("", "abc-1", "x".repeat(128), "x".repeat(129), "has space", "semi;colon", "ünïcode", "a/b", "%00"), headerText), { freq: 3, nil: undefined });

/** The credential a route most likely takes, sent more often so that requests get past authentication. */
function likelyCredential(operation: Operation): string {
  if (operation.path.startsWith("/v1/admin/")) return "admin";
  if (operation.path.startsWith("/v1/ingest/")) return "user upload+connect token";
  return "tenant";
}

interface Parts {
  credential: string;
  path: string[];
  query: Array<string[] | undefined>;
  extraQuery: string | undefined;
  body: BodyChoice;
  idempotencyKey: string | undefined;
  requestId: string | undefined;
}

/** Anything: every part of the request may be wrong. */
function wildParts(operation: Operation, fixtures: Fixtures): fc.Arbitrary<Parts> {
  const body: fc.Arbitrary<BodyChoice> = operation.path.startsWith("/v1/ingest/")
    ? uploadBody(operation.body?.contentTypes ?? [])
    : operation.body
      ? jsonRouteBody(operation.body.schema, fixtures)
      : fc.oneof({ weight: 4, arbitrary: fc.constant<BodyChoice>({ body: undefined, contentType: undefined }) }, { weight: 1, arbitrary: jsonRouteBody(undefined, fixtures) });
  return fc.record({
    credential: fc.oneof({ weight: 1, arbitrary: fc.constant(likelyCredential(operation)) }, { weight: 2, arbitrary: fc.constantFrom(...Object.keys(fixtures.credentials)) }),
    path: fc.tuple(...operation.parameters.filter((p) => p.in === "path").map((p) => pathValue(p, fixtures))),
    query: fc.tuple(...operation.parameters.filter((p) => p.in === "query").map((p) => fc.option(queryValue(p, fixtures), { freq: p.required ? 6 : 2, nil: undefined }))),
    extraQuery: fc.option(fc.constantFrom("unknown=1", "limit", "&&", "a[b]=1", "__proto__=x", "%FF=%FF", "=", "limit=1&limit=1001"), { freq: 6, nil: undefined }),
    body,
    idempotencyKey,
    requestId: requestIdHeader,
  });
}

/** Plausible: the likely credential, real ids, values the schemas accept; so that requests reach the routes' own code and succeed. */
function tameParts(operation: Operation, fixtures: Fixtures): fc.Arbitrary<Parts> {
  const plain = (p: Parameter) => validValue(p.schema, p.name, fixtures).map((v) => [encoded(asText(v))]);
  const upload = VALID_UPLOADS[operation.path.replace("/v1/ingest/", "")];
  const body: fc.Arbitrary<BodyChoice> = upload
    ? fc.constant({ contentType: upload[0], body: utf8(upload[1]) })
    : operation.body
      ? validValue(operation.body.schema ?? {}, "", fixtures).map((value) => ({ body: utf8(jsonText(value)), contentType: JSON_TYPE }))
      : fc.constant<BodyChoice>({ body: undefined, contentType: undefined });
  return fc.record({
    credential: fc.constant(likelyCredential(operation)),
    path: fc.tuple(...operation.parameters.filter((p) => p.in === "path").map((p) => (fixtures.known[p.name]?.length ? fc.constantFrom(...fixtures.known[p.name]!) : plain(p).map(([v]) => v!)))),
    query: fc.tuple(...operation.parameters.filter((p) => p.in === "query").map((p) => (p.required ? plain(p) : fc.option(plain(p), { nil: undefined })))),
    extraQuery: fc.constant(undefined),
    body,
    idempotencyKey: fc.option(fc.uuid(), { nil: undefined }),
    requestId: fc.option(fc.constantFrom("fuzz-1", "a.b_c-d"), { nil: undefined }),
  });
}

/** Whole requests for one operation: wild ones, and tame ones that get past validation. */
export function requestFor(operation: Operation, fixtures: Fixtures): fc.Arbitrary<FuzzRequest> {
  return fc
    .oneof({ weight: 2, arbitrary: wildParts(operation, fixtures) }, { weight: 1, arbitrary: tameParts(operation, fixtures) })
    .map((parts) => requestOf(operation, fixtures, parts));
}

/** Past the schema's length limit (or past 64 characters where it names none): every parameter refuses it. */
const tooLong = (parameter: Parameter) => "a".repeat((parameter.schema.maxLength ?? 64) + 1);

/**
 * The requests every operation gets besides the random ones, each a tame request with one
 * thing wrong: every path and query value too long, every path value a malformed escape, a
 * NUL in an unknown query value, and no credential. Random runs may miss such a boundary
 * on a route; these never do.
 */
export function edgeRequestsFor(operation: Operation, fixtures: Fixtures, seed: number): FuzzRequest[] {
  const [tame] = fc.sample(tameParts(operation, fixtures), { seed, numRuns: 1 });
  const pathParameters = operation.parameters.filter((p) => p.in === "path");
  const queryParameters = operation.parameters.filter((p) => p.in === "query");
  const variants: Parts[] = [
    ...pathParameters.flatMap((parameter, i) =>
      [tooLong(parameter), "%E0%A4%A"].map((value) => ({ ...tame!, path: tame!.path.map((v, j) => (j === i ? value : v)) })),
    ),
    ...queryParameters.map((parameter, i) => ({ ...tame!, query: tame!.query.map((v, j) => (j === i ? [tooLong(parameter)] : v)) })),
    { ...tame!, extraQuery: "x=%00" },
    { ...tame!, credential: "none" },
  ];
  return variants.map((parts) => requestOf(operation, fixtures, parts));
}

function requestOf(operation: Operation, fixtures: Fixtures, { credential, path, query, extraQuery, body, idempotencyKey, requestId }: Parts): FuzzRequest {
  const queryParameters = operation.parameters.filter((p) => p.in === "query");
  let i = 0;
  const filledPath = operation.path.replace(/\{[^}]+\}/g, () => path[i++] ?? "");
  const pairs = queryParameters.flatMap((p, j) => (query[j] ?? []).map((value) => `${encodeURIComponent(p.name)}=${value}`));
  if (extraQuery !== undefined) pairs.push(extraQuery);
  const headers: Record<string, string> = {};
  const authorization = fixtures.credentials[credential];
  if (authorization !== undefined) headers.authorization = authorization;
  if (body.contentType !== undefined) headers["content-type"] = body.contentType;
  if (body.contentEncoding !== undefined) headers["content-encoding"] = body.contentEncoding;
  if (idempotencyKey !== undefined) headers["idempotency-key"] = idempotencyKey;
  if (requestId !== undefined) headers["x-request-id"] = requestId;
  const request: FuzzRequest = {
    method: operation.method,
    url: pairs.length > 0 ? `${filledPath}?${pairs.join("&")}` : filledPath,
    credential,
    headers,
    // fetch refuses a body on GET.
    body: operation.method === "GET" ? undefined : body.body,
  };
  // fast-check prints a failing request this way, not as a megabyte of array.
  return Object.assign(request, { [fc.toStringMethod]: () => describeRequest(request) });
}
