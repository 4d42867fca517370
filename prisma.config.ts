import { defineConfig } from "prisma/config";

// Used by the Prisma CLI (generate). The database URL is only needed online, for
// `prisma migrate deploy` against a reachable database.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost:5432/svc" },
});
