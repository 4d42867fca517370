import { appRouter } from "@svc/api";
import type { Request } from "express";
import { describe, expect, it } from "vitest";
import { requestRoute } from "../src/metrics/request-route.ts";

/** A request as express leaves it once answered. */
const answered = (fields: { method?: string; originalUrl?: string; baseUrl?: string; route?: { path: unknown } }) =>
  ({ method: "GET", originalUrl: "/", baseUrl: "", route: undefined, ...fields }) as unknown as Request;

const v1 = (method: string, originalUrl: string) => requestRoute(answered({ method, originalUrl, baseUrl: "/v1" }));

describe("the route template of a request (metrics labels)", () => {
  it("names every /v1 procedure by its OpenAPI path, whatever the ids in the URL", () => {
    const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: { openapi?: { method: string; path: string } } } }>;
    const routes = Object.values(procedures).flatMap((procedure) => (procedure._def.meta?.openapi ? [procedure._def.meta.openapi] : []));
    expect(routes.length).toBeGreaterThan(50);
    for (const { method, path } of routes) {
      expect(v1(method, path.replace(/\{[^}]+\}/g, "3f9e2c1a-1111-4222-8333-444455556666")), `${method} ${path}`).toBe(path);
    }
  });

  it("matches /v1 as trpc-to-openapi does: a trailing slash, any case, the query left out", () => {
    expect(v1("GET", "/v1/users/abc/samples?type=heart_rate&from=2026-01-01")).toBe("/v1/users/{id}/samples");
    expect(v1("GET", "/v1/users/abc/")).toBe("/v1/users/{id}");
    expect(v1("GET", "/V1/Users/abc")).toBe("/v1/users/{id}");
    expect(v1("DELETE", "/v1/users/abc/tags/def")).toBe("/v1/users/{id}/tags/{tag_id}");
    // A parameter is one segment: no match swallows a slash or the query.
    expect(v1("GET", "/v1/users/a/b/c/d/e/f")).toBe("/v1");
    expect(v1("GET", "/v1/users/a?b=/c")).toBe("/v1/users/{id}");
  });

  it("names express routes by their path, mounted middleware by its mount, and the rest unmatched", () => {
    expect(requestRoute(answered({ route: { path: "/oauth/:provider/callback" } }))).toBe("/oauth/:provider/callback");
    expect(requestRoute(answered({ baseUrl: "/demo", route: { path: "/oauth/token" } }))).toBe("/demo/oauth/token");
    expect(requestRoute(answered({ route: { path: ["/console", "/console/{*rest}"] } }))).toBe("/console,/console/{*rest}");
    expect(requestRoute(answered({ baseUrl: "/trpc", originalUrl: "/trpc/admin.listTenants?batch=1" }))).toBe("/trpc");
    expect(requestRoute(answered({ originalUrl: "/connect/secret-token-here" }))).toBe("unmatched");
  });
});
