import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { bulkFilePaths } from "./openapi-bulk-files.ts";
import { OPENAPI_COMPONENTS } from "./openapi-components.ts";
import { errorContent, OPERATION_OUTCOME_SCHEMA } from "./openapi-fhir.ts";
import { finishSchemas } from "./openapi-schemas.ts";
import { UPLOAD_ACCEPTED, uploadPaths } from "./openapi-uploads.ts";
import { eventComponents, webhookPathItems } from "./openapi-webhooks.ts";
import { appRouter } from "./router.ts";
import type { SvcMeta } from "./trpc.ts";

export const API_VERSION = "0.1.0";

type Described = { description?: string; $ref?: string };
type Operation = { responses?: Record<string, unknown>; parameters?: Array<{ description?: string; schema?: Described }>; security?: unknown[] };

const PROBLEM_SCHEMA = {
  type: "object" as const,
  description: "An RFC 9457 problem. detail never holds a secret or a health value.",
  required: ["type", "title", "status", "detail", "request_id"],
  properties: {
    type: { type: "string" as const, description: "about:blank" },
    title: { type: "string" as const },
    status: { type: "integer" as const },
    detail: { type: "string" as const },
    request_id: { type: "string" as const, description: "Equals the X-Request-Id response header." },
  },
};

/**
 * The OpenAPI 3.1 document of this build, generated from the router, with the schemas of
 * openapi-components.ts and of every webhook event named. Added after generation: the upload
 * routes, the FHIR Bulk Data files and the `webhooks` (one per event type); every error answer is an
 * application/problem+json Problem (under /v1/fhir also an application/fhir+json
 * OperationOutcome: openapi-fhir.ts) worded by its own procedure's errorResponses (statuses
 * every operation can answer added); a procedure's successStatus (201, 202, 204) replaces the
 * generator's 200, and a 204 has no content; then the schemas are finished for client
 * generators (openapi-schemas.ts).
 */
export function buildOpenApiDocument(baseUrl: string): OpenAPIObject {
  const document = generateOpenApiDocument(appRouter, {
    title: "svc",
    description:
      "Self-hostable, multi-tenant backend that collects health and fitness data from outside providers, normalizes it, stores it and serves it back.",
    version: API_VERSION,
    license: { name: "Apache-2.0", identifier: "Apache-2.0" },
    baseUrl,
    securitySchemes: {
      bearer: {
        type: "http",
        scheme: "bearer",
        description: "A tenant API key (svc_sk_…), a user token (svc_ut_…) or an instance admin key (svc_ak_…), per route.",
      },
    },
    defs: { ...OPENAPI_COMPONENTS, ...eventComponents() },
  });
  document.paths = { ...document.paths, ...uploadPaths(), ...bulkFilePaths() } as OpenAPIObject["paths"];
  document.webhooks = webhookPathItems() as OpenAPIObject["webhooks"];
  const metas = routeMetas();
  const errorDescriptionsByRoute = errorDescriptions(metas);
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, Problem: PROBLEM_SCHEMA, FhirOperationOutcome: OPERATION_OUTCOME_SCHEMA, UploadAccepted: UPLOAD_ACCEPTED },
  };
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
      // The generator leaves an optional query parameter's description in its schema (or the named schema) only; generators read the parameter's.
      for (const parameter of operation.parameters ?? []) parameter.description ??= descriptionOf(parameter.schema, document);
      // A procedure that takes no secret (protect: false) says so, rather than leaving security out.
      operation.security ??= [];
      const responses = operation.responses ?? {};
      addCommonErrors(responses, method);
      const ownErrors = errorDescriptionsByRoute.get(`${method.toUpperCase()} ${path}`) ?? {};
      for (const [status, response] of Object.entries(responses)) {
        if (Number(status) < 400) continue;
        const own = ownErrors[status];
        const description = status === "429" && own ? `${own}. Also: ${RATE_LIMITED}` : (own ?? (response as { description?: string }).description ?? "Error");
        responses[status] = {
          description,
          ...(status === "401" && {
            headers: { "WWW-Authenticate": { schema: { type: "string", const: "Bearer" } } },
          }),
          ...((status === "429" || status === "503") && {
            headers: { "Retry-After": { schema: { type: "integer", minimum: 1 }, description: "Seconds to wait before calling again." } },
          }),
          content: errorContent(path),
        };
      }
      const meta = metas.get(`${method.toUpperCase()} ${path}`);
      if (meta?.contentType && responses["200"]) {
        const ok = responses["200"] as { content?: Record<string, unknown> };
        ok.content = { [meta.contentType]: ok.content?.["application/json"] };
      }
      const successStatus = meta?.successStatus;
      if (successStatus && responses["200"]) {
        responses[String(successStatus)] = responses["200"];
        delete responses["200"];
      }
      const alsoSucceeds = meta?.alsoSucceeds;
      if (alsoSucceeds) {
        const first = alsoSucceeds.sameBody && successStatus ? (responses[String(successStatus)] as object) : {};
        responses[String(alsoSucceeds.status)] = { ...first, description: alsoSucceeds.description };
      }
      if (responses["204"]) responses["204"] = withoutContent(responses["204"]);
    }
  }
  finishSchemas(document);
  return document;
}

function descriptionOf(schema: Described | undefined, document: OpenAPIObject): string | undefined {
  const named = schema?.$ref?.replace("#/components/schemas/", "");
  return schema?.description ?? (named ? (document.components?.schemas?.[named] as Described | undefined)?.description : undefined);
}

/** A 204 answers no body, so neither a media type (the generator gives a void procedure's answer JSON content). */
function withoutContent(response: unknown): unknown {
  const { content: _, ...rest } = response as { content?: unknown };
  return rest;
}

/** Every operation takes a secret, and every caller has a rate limit (SVC_RATE_LIMIT_*). */
const RATE_LIMITED = "The caller's rate limit is reached (calls of the tenant's keys, of the user's tokens, or of the admin key, per window); see Retry-After";

/**
 * Errors every operation can answer, besides those its procedure words itself: every
 * procedure validates its input (query values and path values included, e.g. a slug over 64
 * characters or a malformed percent escape), takes a secret of some kinds only, is rate
 * limited, and needs the database. Bodies add their own three.
 */
function addCommonErrors(responses: Record<string, unknown>, method: string): void {
  const takesBody = ["post", "put", "patch"].includes(method);
  const common: Record<string, string> = {
    "400": takesBody
      ? "Invalid input: malformed JSON, a body that is not an object, or fields that do not validate"
      : "Invalid input: a path or query value that does not validate or is not valid percent-encoded UTF-8, or text with the NUL character",
    "401": "Missing, wrong or expired secret",
    "403": "The secret is not of a kind (or lacks the scope) this operation takes",
    ...(takesBody && { "413": "The body is larger than 1 MiB", "415": "The body is not application/json" }),
    "429": RATE_LIMITED,
    "500": "Unexpected error; the cause is logged under the request_id",
    "503": "The database is unavailable for a moment; see Retry-After",
  };
  for (const [status, description] of Object.entries(common)) responses[status] ??= { description };
}

type RouteMeta = SvcMeta & { openapi: { method: string; path: string; errorResponses?: unknown } };

/** Each REST procedure's meta by "METHOD path". */
function routeMetas(): Map<string, RouteMeta> {
  const metas = new Map<string, RouteMeta>();
  type ProcedureDef = { _def: { meta?: Partial<RouteMeta> } };
  for (const procedure of Object.values(appRouter._def.procedures) as unknown as ProcedureDef[]) {
    const meta = procedure._def.meta;
    if (meta?.openapi) metas.set(`${meta.openapi.method} ${meta.openapi.path}`, meta as RouteMeta);
  }
  return metas;
}

/**
 * Each procedure's own errorResponses texts. The generator caches one error response
 * object per status code, so every operation would otherwise show the wording of the
 * first procedure that listed that status.
 */
function errorDescriptions(metas: Map<string, RouteMeta>): Map<string, Record<string, string>> {
  const descriptions = new Map<string, Record<string, string>>();
  for (const [route, meta] of metas) {
    const errors = meta.openapi.errorResponses;
    if (errors && !Array.isArray(errors) && typeof errors === "object") descriptions.set(route, errors as Record<string, string>);
  }
  return descriptions;
}
