import { generateOpenApiDocument, type OpenAPIObject } from "trpc-to-openapi";
import { uploadPaths } from "./openapi-uploads.ts";
import { appRouter } from "./router.ts";
import type { SvcMeta } from "./trpc.ts";

export const API_VERSION = "0.1.0";

type Operation = { responses?: Record<string, unknown> };

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
 * The OpenAPI 3.1 document of this build, generated from the router. Two things are
 * added after generation: every error answer is an application/problem+json Problem
 * worded by its own procedure's errorResponses, and a procedure's successStatus
 * (201, 202) replaces the generator's 200.
 */
export function buildOpenApiDocument(baseUrl: string): OpenAPIObject {
  const document = generateOpenApiDocument(appRouter, {
    title: "svc",
    description:
      "Self-hostable, multi-tenant backend that collects health and fitness data from outside providers, normalizes it, stores it and serves it back.",
    version: API_VERSION,
    baseUrl,
    securitySchemes: {
      bearer: {
        type: "http",
        scheme: "bearer",
        description: "A tenant API key (svc_sk_…), a user token (svc_ut_…) or an instance admin key (svc_ak_…), per route.",
      },
    },
  });
  document.paths = { ...document.paths, ...uploadPaths() } as OpenAPIObject["paths"];
  const metas = routeMetas();
  const errorDescriptionsByRoute = errorDescriptions(metas);
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, Problem: PROBLEM_SCHEMA },
  };
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(item as Record<string, Operation>)) {
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
          ...(status === "429" && {
            headers: { "Retry-After": { schema: { type: "integer", minimum: 1 }, description: "Seconds to wait before calling again." } },
          }),
          content: { "application/problem+json": { schema: { $ref: "#/components/schemas/Problem" } } },
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
        // Without sameBody: shaped like the generator's bodiless answers (a 204 of a void procedure).
        const bodiless = { content: { "application/json": { schema: {} } } };
        const first = alsoSucceeds.sameBody && successStatus ? (responses[String(successStatus)] as object) : bodiless;
        responses[String(alsoSucceeds.status)] = { ...first, description: alsoSucceeds.description };
      }
    }
  }
  return document;
}

/** Every operation takes a secret, and every caller has a rate limit (SVC_RATE_LIMIT_*). */
const RATE_LIMITED = "The caller's rate limit is reached (calls of the tenant's keys, of the user's tokens, or of the admin key, per window); see Retry-After";

/** Errors any operation can answer, besides those its procedure lists. */
function addCommonErrors(responses: Record<string, unknown>, method: string): void {
  const common: Record<string, string> = {
    "429": RATE_LIMITED,
    "500": "Unexpected error; the cause is logged under the request_id",
  };
  if (["post", "put", "patch"].includes(method)) {
    Object.assign(common, {
      "400": "Invalid input: malformed JSON, a body that is not an object, or fields that do not validate",
      "413": "The body is larger than 1 MiB",
      "415": "The body is not application/json",
    });
  }
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
