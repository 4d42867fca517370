// What the global setup hands to every test file through vitest's provide/inject.
declare module "vitest" {
  export interface ProvidedContext {
    /** Connection string of the run's template database (every migration applied). */
    templateDatabaseUrl: string;
    /** Folder of the run's logs and recorded secrets, scanned for leaks when the run ends (leak-scan.ts). */
    runLogsDir: string;
  }
}

export {};
