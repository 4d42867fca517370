import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { createApiContext } from "@svc/api";
import { AppError, authenticate, bearerSecret, requireReaderPrincipal, toProblem, type CoreDeps, type ReaderPrincipal } from "@svc/core";
import { createMcpServer } from "@svc/mcp";
import express, { type NextFunction, type Request, type Response } from "express";
import { sendProblem } from "../problem-response.ts";
import { crossOriginReason } from "./mcp-origin.ts";

/**
 * The caller of /mcp: a tenant key, or a user token with scope read. A bad secret is 401;
 * an admin key, or a user token without read, is 403. The request counts once against the
 * caller's rate limit (429 above it); the tools it runs then do not count again.
 */
async function mcpPrincipal(deps: CoreDeps, authorization: string | undefined): Promise<ReaderPrincipal> {
  const caller = await authenticate(deps.db, bearerSecret(authorization));
  await deps.rateLimits.consume(caller);
  const principal = requireReaderPrincipal(caller);
  if (principal.kind === "user" && !principal.scopes.includes("read")) {
    throw new AppError("forbidden", "/mcp takes a tenant API key or a user token with scope read; this token lacks scope read.");
  }
  return principal;
}

/**
 * `/mcp`: MCP over Streamable HTTP, stateless (a new server and transport per request, no
 * Mcp-Session-Id) with plain JSON answers. Tools run the REST procedures (packages/mcp).
 */
export function mcpRouter(deps: CoreDeps): express.Router {
  const router = express.Router();
  const parseJson = express.json({ limit: "1mb" });

  const refuseCrossOrigin = (req: Request, res: Response, next: NextFunction) => {
    const reason = crossOriginReason(req, deps.providerConfig.settings.publicUrl());
    if (reason) return sendProblem(res, toProblem(new AppError("forbidden", reason), req.requestId));
    next();
  };

  router.post("/mcp", refuseCrossOrigin, parseJson, async (req, res, next) => {
    try {
      const principal = await mcpPrincipal(deps, req.get("authorization"));
      const api = { ...createApiContext({ deps, requestId: req.requestId, header: (name) => req.get(name) }), principal };
      const server = createMcpServer({ api, onUnexpectedError: (error) => req.log.error({ err: error }, "mcp tool failed") });
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      res.on("close", () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(req, res, req.body);
    } catch (error) {
      next(error);
    }
  });

  // Stateless: no server-sent stream to open (GET) and no session to end (DELETE).
  router.all("/mcp", refuseCrossOrigin, (req, res) => {
    res.setHeader("Allow", "POST");
    sendProblem(res, toProblem(new AppError("method_not_allowed", "/mcp takes POST: it is stateless, with no stream or session."), req.requestId));
  });
  return router;
}
