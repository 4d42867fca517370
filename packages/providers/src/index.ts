export * from "./parsed-records.ts";
