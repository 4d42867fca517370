import { z } from "zod";

const boolean = z.enum(["true", "false", "1", "0"]).transform((value) => value === "true" || value === "1");

/** Every setting of the server process; the only place that reads process.env. */
export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  SVC_HOST: z.string().default("0.0.0.0"),
  DATABASE_URL: z.url().optional(),
  SVC_DATA_DIR: z.string().default("./.data"),
  SVC_ROLE: z.enum(["all", "api", "etl"]).default("all"),
  SVC_MIGRATE_ON_START: boolean.default(true),
  SVC_BOOTSTRAP_TENANT: z.string().min(1).max(200).optional(),
  SVC_PUBLIC_URL: z.url().optional(),
  SVC_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type Env = z.infer<typeof EnvSchema>;

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = EnvSchema.safeParse(Object.fromEntries(Object.entries(source).filter(([, v]) => v !== "")));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
  return parsed.data;
}
