export * from "./first-run-setup.ts";
export * from "./mirrors.ts";
export * from "./pipeline.ts";
export * from "./providers.ts";
export * from "./reseal-secrets.ts";
export * from "./tenants.ts";
