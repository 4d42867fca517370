// The physical reference of the read benchmarks: a minimal node:http + pg server answering
// GET /v1/users/{id} with the two queries svc needs at least (the tenant key by its SHA-256
// hash, then the user), and GET /v1/users/{id}/samples with a third: the user's first 100
// rows of the narrow table bench_reference_samples (the bench fills it with the same
// samples). On the same database, with svc's pool size. No framework, no validation beyond
// what the answer needs. Prints {"url": …} on stdout once it listens.
//   DATABASE_URL=… node bench/reference-server.ts
import { createHash } from "node:crypto";
import http from "node:http";
import pg from "pg";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });

const keyQuery = `SELECT k.tenant_id FROM tenant_api_keys k JOIN tenants t ON t.id = k.tenant_id
  WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND t.status = 'active'`;
const userQuery = `SELECT id, external_ref, status, created_at FROM users WHERE id = $1 AND tenant_id = $2 AND status = 'active'`;
const samplesQuery = `SELECT id, start_date, end_date, value FROM bench_reference_samples WHERE user_id = $1 ORDER BY start_date, id LIMIT 100`;

function answer(res: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

const server = http.createServer(async (req, res) => {
  try {
    const route = /^\/v1\/users\/([0-9a-f-]{36})(\/samples\?.*)?$/.exec(req.url ?? "");
    if (!route) return answer(res, 404, { title: "Not Found" });
    const secret = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1];
    if (!secret) return answer(res, 401, { title: "Unauthorized" });
    const key = await pool.query(keyQuery, [createHash("sha256").update(secret).digest("hex")]);
    if (key.rowCount === 0) return answer(res, 401, { title: "Unauthorized" });
    const user = await pool.query(userQuery, [route[1], key.rows[0].tenant_id]);
    if (user.rowCount === 0) return answer(res, 404, { title: "Not Found" });
    const row = user.rows[0];
    if (!route[2]) return answer(res, 200, { id: row.id, external_ref: row.external_ref, status: row.status, created_at: row.created_at.toISOString() });
    const samples = await pool.query(samplesQuery, [row.id]);
    const data = samples.rows.map((s) => ({ id: s.id, start_date: s.start_date.toISOString(), end_date: s.end_date.toISOString(), value: s.value }));
    answer(res, 200, { data, next_cursor: null });
  } catch {
    answer(res, 500, { title: "Internal Server Error" });
  }
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address() as { port: number };
  console.log(JSON.stringify({ url: `http://127.0.0.1:${address.port}` }));
});
process.on("SIGTERM", () => server.close(() => void pool.end()));
