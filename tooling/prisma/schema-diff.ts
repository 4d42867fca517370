// Computes the SQL that takes a database to what prisma/schema.prisma describes, with
// Prisma's schema engine compiled to WASM (the native engine cannot be downloaded here).
// The package is built for bundlers and is not a public API: its version is pinned.
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory, ColumnTypeEnum } from "@prisma/driver-adapter-utils";
import { schemaPath } from "@svc/db";
import pg from "pg";

/** Tables the migrations create by hand (partitioned, see docs/deployment.md): the diff leaves them alone. */
const EXTERNAL_TABLES = [
  "public.quantity_sample_series",
  "public.quantity_sample_chunks",
  "public.quantity_sample_rollups",
  "public.quantity_sample_merged_rollups",
  "public.quantity_sample_merged_dirty",
  // Emptied by the job data-moves (docs/decisions.md, "Online data moves").
  "public.quantity_samples_legacy",
  "public.rr_intervals_legacy",
  "public.workout_route_points_legacy",
  "public.category_samples_legacy",
];

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

/** Column positions of type "char", by SQL text (the same query always has the same columns). */
const charColumnsBySql = new Map<string, number[]>();

/**
 * The engine reads pg_catalog columns of type "char" (relkind, contype, ...), which the pg
 * driver adapter refuses as an unsupported type. This client reports them as text to the
 * adapter and remembers where they were, so the adapter's answer can name them Character,
 * the type the engine expects.
 */
class CatalogClient extends pg.Client {
  override query(...args: unknown[]): never {
    const sql = typeof args[0] === "string" ? args[0] : (args[0] as { text?: string }).text ?? "";
    const asText = (answer: pg.QueryResult): pg.QueryResult => {
      const positions: number[] = [];
      answer.fields?.forEach((field, index) => {
        if (field.dataTypeID !== PG_CHAR_OID) return;
        field.dataTypeID = PG_TEXT_OID;
        positions.push(index);
      });
      if (positions.length > 0) charColumnsBySql.set(sql, positions);
      return answer;
    };
    const last = args.at(-1);
    if (typeof last === "function") {
      args[args.length - 1] = (error: Error | null, answer: pg.QueryResult) => last(error, answer && asText(answer));
    }
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    return (result instanceof Promise ? result.then(asText) : result) as never;
  }
}

type Queryable = { queryRaw(query: { sql: string }): Promise<{ columnTypes: number[] }> };

function withCharColumns<T extends Queryable>(adapter: T): T {
  const queryRaw = adapter.queryRaw.bind(adapter);
  adapter.queryRaw = async (query) => {
    const result = await queryRaw(query);
    for (const index of charColumnsBySql.get(query.sql) ?? []) result.columnTypes[index] = ColumnTypeEnum.Character;
    return result;
  };
  return adapter;
}

interface SchemaEngine {
  diff(params: unknown): Promise<{ exitCode: number; stdout: string | null }>;
  free(): void;
}

type SchemaEngineClass = { new: (...args: unknown[]) => Promise<SchemaEngine> };

// The WASM module holds global state: instantiate it once per process.
let schemaEngine: Promise<SchemaEngineClass> | undefined;
const loadSchemaEngine = (): Promise<SchemaEngineClass> => (schemaEngine ??= instantiateSchemaEngine());

async function instantiateSchemaEngine(): Promise<SchemaEngineClass> {
  const bindingsUrl = import.meta.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
  const bindings = await import(bindingsUrl);
  const dir = path.dirname(fileURLToPath(bindingsUrl));
  const bytes = readFileSync(path.join(dir, "schema_engine_bg.wasm"));
  const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": bindings });
  bindings.__wbg_set_wasm(instance.exports);
  (instance.exports as { __wbindgen_start?: () => void }).__wbindgen_start?.();
  return bindings.SchemaEngine;
}

/** SQL from the database at `connectionString` to the schema; empty when they agree. */
export async function diffDatabaseToSchema(connectionString: string): Promise<string> {
  const SchemaEngine = await loadSchemaEngine();
  const schemaFile = schemaPath();
  const files = [{ path: schemaFile, content: readFileSync(schemaFile, "utf8") }];
  const pool = new pg.Pool({ connectionString, Client: CatalogClient });
  const pgFactory = new PrismaPg(pool);
  const factory = bindMigrationAwareSqlAdapterFactory({
    provider: pgFactory.provider,
    adapterName: pgFactory.adapterName,
    connect: async () => withCharColumns(await pgFactory.connect()),
    connectToShadowDb: async () => withCharColumns(await pgFactory.connectToShadowDb()),
  });
  const engine = await SchemaEngine.new(
    { datamodels: files.map((file) => [file.path, file.content]) },
    () => {},
    factory,
  );
  try {
    const result = await engine.diff({
      from: { tag: "schemaDatasource", files, configDir: path.dirname(schemaFile) },
      to: { tag: "schemaDatamodel", files },
      script: true,
      exitCode: null,
      // Partitioned tables Prisma cannot describe: written only with SQL, created by hand-written migrations.
      filters: { externalTables: EXTERNAL_TABLES, externalEnums: [] },
    });
    const sql = result.stdout ?? "";
    return /^\s*(-- This is an empty migration\.)?\s*$/.test(sql) ? "" : sql;
  } finally {
    engine.free();
    await pool.end();
  }
}
