// Reads the catalog of a migrated database and names what would keep its tables from being
// distributed as table-distribution.ts says, by the rules Citus enforces: a unique key of a
// distributed table holds its distribution column; a foreign key between distributed tables
// pairs their distribution columns; one holding the distribution column neither cascades
// updates nor sets it null or to a default; reference and coordinator tables point at no
// distributed table, and distributed tables at no coordinator table.
import pg from "pg";
import { TABLE_DISTRIBUTION, type TablePlacement } from "./table-distribution.ts";

const USER_ID = "user_id";

interface UniqueKey {
  table: string;
  name: string;
  primary: boolean;
  columns: string[];
}

interface ForeignKey {
  name: string;
  table: string;
  columns: string[];
  references: string;
  referencedColumns: string[];
  onUpdate: string;
  onDelete: string;
}

// Tables of the schema public; the partitions (schema svc_partitions) follow their parent.
const TABLES_SQL = `
  SELECT c.relname AS name,
    coalesce((SELECT a.attnotnull FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = '${USER_ID}' AND NOT a.attisdropped), false) AS "userIdNotNull",
    EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = '${USER_ID}' AND NOT a.attisdropped) AS "hasUserId"
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND NOT c.relispartition
  ORDER BY c.relname`;

// Every unique index (primary keys and unique constraints included) with its key columns; an
// expression in the key shows as "(expression)".
const UNIQUE_KEYS_SQL = `
  SELECT t.relname AS table, i.relname AS name, x.indisprimary AS primary,
    ARRAY(SELECT coalesce(a.attname::text, '(expression)')
          FROM generate_series(0, x.indnkeyatts - 1) AS k(n)
          LEFT JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = x.indkey[k.n]
          ORDER BY k.n) AS columns
  FROM pg_index x
  JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
  JOIN pg_class i ON i.oid = x.indexrelid
  WHERE x.indisunique AND n.nspname = 'public' AND NOT t.relispartition
  ORDER BY 1, 2`;

const FOREIGN_KEYS_SQL = `
  SELECT k.conname AS name, t.relname AS table, r.relname AS references,
    ARRAY(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY AS c(attnum, n)
          JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = c.attnum ORDER BY c.n) AS columns,
    ARRAY(SELECT a.attname::text FROM unnest(k.confkey) WITH ORDINALITY AS c(attnum, n)
          JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = c.attnum ORDER BY c.n) AS "referencedColumns",
    k.confupdtype::text AS "onUpdate", k.confdeltype::text AS "onDelete"
  FROM pg_constraint k
  JOIN pg_class t ON t.oid = k.conrelid JOIN pg_namespace n ON n.oid = t.relnamespace
  JOIN pg_class r ON r.oid = k.confrelid
  WHERE k.contype = 'f' AND k.conparentid = 0 AND n.nspname = 'public'
  ORDER BY 2, 1`;

const ACTION_NAMES: Record<string, string> = { c: "CASCADE", n: "SET NULL", d: "SET DEFAULT" };

/** What keeps the database at `connectionString` from the placement of `placements`; empty when nothing does. */
export async function findDistributionProblems(
  connectionString: string,
  placements: Readonly<Record<string, TablePlacement>> = TABLE_DISTRIBUTION,
): Promise<string[]> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    const tables = (await client.query<{ name: string; hasUserId: boolean; userIdNotNull: boolean }>(TABLES_SQL)).rows;
    const uniqueKeys = (await client.query<UniqueKey>(UNIQUE_KEYS_SQL)).rows;
    const foreignKeys = (await client.query<ForeignKey>(FOREIGN_KEYS_SQL)).rows;
    const problems: string[] = [];
    const present = new Set(tables.map((table) => table.name));

    for (const table of tables) {
      const placement = placements[table.name];
      if (!placement) {
        problems.push(
          `${table.name}: not classified. A table of one user's data holds user_id in every primary and unique key ` +
            `(add it as byUser() to tooling/prisma/table-distribution.ts); any other table is a reference or coordinator ` +
            `table there, with the reason. List it in docs/deployment.md, "Distributing on Citus", too.`,
        );
        continue;
      }
      if (placement.kind !== "by_user") continue;
      if (!table.userIdNotNull) problems.push(`${table.name}: a table of one user's data needs a ${USER_ID} column, NOT NULL`);
      if (placement.partOf) {
        const toParent = foreignKeys.some((fk) => fk.table === table.name && fk.references === placement.partOf && pairsUserIds(fk));
        if (!toParent) problems.push(`${table.name}: needs a foreign key to ${placement.partOf} that pairs ${USER_ID} with ${USER_ID}`);
      }
    }
    for (const name of Object.keys(placements)) {
      if (!present.has(name)) problems.push(`${name}: classified in tooling/prisma/table-distribution.ts but not in the database`);
    }

    for (const key of uniqueKeys) {
      if (placements[key.table]?.kind !== "by_user" || key.columns.includes(USER_ID)) continue;
      const what = key.primary ? "primary key" : "unique index";
      problems.push(`${key.table}: ${what} ${key.name} (${key.columns.join(", ")}) lacks ${USER_ID}`);
    }

    for (const fk of foreignKeys) problems.push(...foreignKeyProblems(fk, placements));
    return problems;
  } finally {
    await client.end();
  }
}

/** Whether the key pairs user_id of its table with user_id of the table it references. */
function pairsUserIds(fk: ForeignKey): boolean {
  const at = fk.columns.indexOf(USER_ID);
  return at !== -1 && fk.referencedColumns[at] === USER_ID;
}

function foreignKeyProblems(fk: ForeignKey, placements: Readonly<Record<string, TablePlacement>>): string[] {
  const from = placements[fk.table]?.kind;
  const to = placements[fk.references]?.kind;
  if (!from || !to) return []; // an unclassified table is reported once, above
  const where = `${fk.table}: foreign key ${fk.name} (${fk.columns.join(", ")}) -> ${fk.references} (${fk.referencedColumns.join(", ")})`;
  if (from !== "by_user") {
    return to === "by_user" || (from === "reference" && to === "coordinator") ? [`${where}: a ${from} table cannot point at a ${to} table`] : [];
  }
  if (to === "coordinator") return [`${where}: a table of user data cannot point at a coordinator table`];
  const problems: string[] = [];
  if (to === "by_user" && !pairsUserIds(fk)) problems.push(`${where}: must pair ${USER_ID} with ${USER_ID}`);
  if (fk.columns.includes(USER_ID)) {
    const onUpdate = ACTION_NAMES[fk.onUpdate];
    const onDelete = fk.onDelete === "c" ? undefined : ACTION_NAMES[fk.onDelete];
    if (onUpdate) problems.push(`${where}: ON UPDATE ${onUpdate} would change ${USER_ID}; use NO ACTION (Prisma: onUpdate: NoAction)`);
    if (onDelete) problems.push(`${where}: ON DELETE ${onDelete} would change ${USER_ID}`);
  }
  return problems;
}
