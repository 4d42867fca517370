import { describe, expect, it } from "vitest";
import { resolveMcpSecret, resolveMcpUrl } from "../src/mcp/mcp-target.ts";

const env = (values: { SVC_MCP_URL?: string; SVC_PUBLIC_URL?: string; SVC_MCP_KEY?: string }) => ({
  SVC_MCP_URL: values.SVC_MCP_URL,
  SVC_PUBLIC_URL: values.SVC_PUBLIC_URL,
  SVC_MCP_KEY: values.SVC_MCP_KEY,
});

describe("svc mcp settings", () => {
  it("takes SVC_MCP_URL, else the public URL, else http://localhost:8080, with /mcp appended unless present", () => {
    expect(resolveMcpUrl(env({})).href).toBe("http://localhost:8080/mcp");
    expect(resolveMcpUrl(env({ SVC_PUBLIC_URL: "https://health.example.com" })).href).toBe("https://health.example.com/mcp");
    expect(resolveMcpUrl(env({ SVC_MCP_URL: "https://a.example.com/svc/", SVC_PUBLIC_URL: "https://b.example.com" })).href).toBe("https://a.example.com/svc/mcp");
    expect(resolveMcpUrl(env({ SVC_MCP_URL: "https://a.example.com/mcp" })).href).toBe("https://a.example.com/mcp");
    expect(resolveMcpUrl(env({ SVC_MCP_URL: "http://127.0.0.1:9000/mcp/" })).href).toBe("http://127.0.0.1:9000/mcp");
    expect(resolveMcpUrl(env({ SVC_MCP_URL: "http://[::1]:9000" })).href).toBe("http://[::1]:9000/mcp");
  });

  it("requires https except on loopback, and no credentials in the URL", () => {
    expect(() => resolveMcpUrl(env({ SVC_MCP_URL: "http://10.0.0.5:8080" }))).toThrow(/must use https/);
    expect(() => resolveMcpUrl(env({ SVC_MCP_URL: "http://localhost.example.com" }))).toThrow(/must use https/);
    expect(() => resolveMcpUrl(env({ SVC_MCP_URL: "ftp://example.com" }))).toThrow(/https URL/);
    expect(() => resolveMcpUrl(env({ SVC_MCP_URL: "https://me:pw@example.com" }))).toThrow(/credentials/);
  });

  it("requires SVC_MCP_KEY to be a tenant key or a user token", () => {
    const body = "0123456789012345678901234567890123456789012";
    expect(resolveMcpSecret(env({ SVC_MCP_KEY: `svc_sk_${body}` }))).toBe(`svc_sk_${body}`);
    expect(resolveMcpSecret(env({ SVC_MCP_KEY: `svc_ut_${body}` }))).toBe(`svc_ut_${body}`);
    expect(() => resolveMcpSecret(env({}))).toThrow(/SVC_MCP_KEY is required/);
    expect(() => resolveMcpSecret(env({ SVC_MCP_KEY: `svc_ak_${body}` }))).toThrow(/instance admin key/);
  });
});
