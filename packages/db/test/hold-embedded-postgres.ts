// A separate process holding the embedded PostgreSQL of argv[2], as a CLI command or the
// server would: it opens it, runs a query, prints {"started","created","port"} as a line and
// waits; a line "stop" on stdin makes it leave (stop) and exit.
import { createInterface } from "node:readline";
import pg from "pg";
import { openEmbeddedPostgres } from "../src/embedded-postgres.ts";

const postgres = await openEmbeddedPostgres(process.argv[2]!);
const client = new pg.Client({ connectionString: postgres.url });
await client.connect();
await client.query("SELECT 1");
await client.end();
console.log(JSON.stringify({ started: postgres.started, created: postgres.created, port: postgres.port }));
for await (const line of createInterface({ input: process.stdin })) {
  if (line === "stop") break;
}
await postgres.stop();
console.log("stopped");
process.exit(0);
