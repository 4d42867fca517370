import { z } from "zod";

/** The CLI's settings: where the database is, the encryption keys, and the instance's URLs. The only place the CLI reads process.env. */
export const CliEnvSchema = z.object({
  DATABASE_URL: z.url().optional(),
  SVC_DATA_DIR: z.string().default("./.data"),
  SVC_ENCRYPTION_KEY: z.string().optional(),
  SVC_PREVIOUS_ENCRYPTION_KEYS: z.string().optional(),
  /** `svc export`: the instance's public URL and code system base, as the server reads them (for the Observations' own codes). */
  SVC_PUBLIC_URL: z.url().optional(),
  SVC_FHIR_CODE_SYSTEM_BASE: z.url().optional(),
});

export type CliEnv = z.infer<typeof CliEnvSchema>;

export function readCliEnv(source: NodeJS.ProcessEnv = process.env): CliEnv {
  const parsed = CliEnvSchema.safeParse(Object.fromEntries(Object.entries(source).filter(([, v]) => v !== "")));
  if (!parsed.success) {
    throw new Error(`Invalid configuration: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  }
  return parsed.data;
}

/** What `svc mcp` reads; it needs no database, so none of the settings above. */
export interface McpLauncherEnv {
  SVC_MCP_URL: string | undefined;
  SVC_MCP_KEY: string | undefined;
  SVC_PUBLIC_URL: string | undefined;
}

export function readMcpLauncherEnv(source: NodeJS.ProcessEnv = process.env): McpLauncherEnv {
  const value = (name: string) => (source[name] ? source[name] : undefined);
  return { SVC_MCP_URL: value("SVC_MCP_URL"), SVC_MCP_KEY: value("SVC_MCP_KEY"), SVC_PUBLIC_URL: value("SVC_PUBLIC_URL") };
}
