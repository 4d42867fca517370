// What the instance's demo server (apps/server/src/demo) needs of the demo provider.
export * from "./demo-api.ts";
export { demoPage, demoProfile } from "./demo-collections.ts";
export { provider as demoProvider } from "./connector.ts";
