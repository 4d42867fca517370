export * from "./parsed-records.ts";
export * from "./apple-health/index.ts";
export * from "./health-connect/index.ts";
export * from "./xiaomi/index.ts";
export * from "./activity-files/activity-file.ts";
export * from "./bluetooth/index.ts";
export * from "./uploads/index.ts";
export * from "./registry.ts";
