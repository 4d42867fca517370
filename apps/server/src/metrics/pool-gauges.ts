import { poolUse, type Database, type PoolUse } from "@svc/db";
import { Gauge, type Registry } from "prom-client";

const POOL_GAUGES: Array<{ name: string; help: string; field: keyof PoolUse }> = [
  { name: "svc_db_pool_connections", help: "Open connections of the role's database pool, busy or idle.", field: "total" },
  { name: "svc_db_pool_idle_connections", help: "Idle connections of the role's database pool.", field: "idle" },
  { name: "svc_db_pool_waiting_queries", help: "Queries and transactions waiting for a connection of the role's database pool.", field: "waiting" },
  { name: "svc_db_pool_max_connections", help: "Most connections the role's database pool opens.", field: "max" },
];

/** The use of `db`'s connection pool (Prisma's pg pool), read when collected: no query. */
export function registerPoolGauges(registry: Registry, db: Database, role: string): void {
  const labels = { role };
  for (const { name, help, field } of POOL_GAUGES) {
    new Gauge({
      name,
      help,
      labelNames: ["role"],
      registers: [registry],
      collect() {
        this.set(labels, poolUse(db)[field]);
      },
    });
  }
}
