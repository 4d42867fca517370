import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { expect } from "vitest";

/**
 * An MCP client of the SDK connected through `transport`. It lists the tools once, so the SDK
 * checks every tool answer's structuredContent against the tool's outputSchema (ajv).
 */
export async function connectClient(transport: Transport): Promise<Client> {
  const client = new Client({ name: "svc-test", version: "1.0.0" });
  await client.connect(transport);
  await client.listTools();
  return client;
}

/** The SDK's client on /mcp over Streamable HTTP, sending `secret` as the bearer secret. */
export function connectHttp(url: string, secret: string): Promise<Client> {
  return connectClient(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${secret}` } } }));
}

export interface ToolAnswer {
  records: any[];
  streams?: any[];
  next_cursor: string | null;
  truncated: boolean;
  hint?: string;
  [field: string]: any;
}

/** Calls a tool that must succeed; returns its structuredContent, which its one JSON text content repeats. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolAnswer> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as Array<{ type: string; text: string }>;
  expect(result.isError ?? false, content[0]?.text).toBe(false);
  expect(content).toHaveLength(1);
  expect(content[0]!.type).toBe("text");
  expect(JSON.parse(content[0]!.text)).toEqual(result.structuredContent);
  return result.structuredContent as ToolAnswer;
}

/** A record with its stream's fields, as REST gives both: for comparing compact answers with REST pages. */
export function withStream(answer: ToolAnswer, record: any): any {
  const stream = answer.streams?.[record.stream ?? 0] ?? {};
  const own = { ...record };
  delete own.stream;
  return { ...stream, ...own };
}

/** Calls a tool that must be refused; returns the tool error's text. */
export async function refusalOf(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as Array<{ type: string; text: string }>;
  expect(result.isError, content[0]?.text).toBe(true);
  return content[0]!.text;
}

/** Every record of a tool, following next_cursor; checks each page's size and truncated flag. */
export async function allRecords(client: Client, name: string, args: Record<string, unknown>, limit: number): Promise<any[]> {
  const records: any[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 1000; pages++) {
    const answer = await callTool(client, name, { ...args, limit, ...(cursor ? { cursor } : {}) });
    expect(answer.records.length).toBeLessThanOrEqual(limit);
    expect(answer.truncated).toBe(answer.next_cursor !== null);
    records.push(...answer.records);
    if (answer.next_cursor === null) return records;
    cursor = answer.next_cursor;
  }
  throw new Error("too many pages");
}
