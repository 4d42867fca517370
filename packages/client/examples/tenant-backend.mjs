// A tenant's backend on plain Node 20+ with @svc/client: it receives svc's webhooks on
// node:http, creates a user, mints the user an upload token, uploads heart rate as the user's
// app would, pages the samples back and waits for the signed data.written webhook.
//   SVC_URL=http://127.0.0.1:3000 SVC_API_KEY=svc_sk_... node tenant-backend.mjs
import { createServer } from "node:http";
import { gzipSync } from "node:zlib";
import { createRestClient, paginate, unwrap, upload, verifyWebhook, WebhookVerificationError } from "@svc/client";

const baseUrl = process.env.SVC_URL;
const svc = createRestClient({ baseUrl, token: process.env.SVC_API_KEY });

// Webhooks: verify the raw bytes before trusting the event. `secret` is the whsec_ value svc
// answers once, when the endpoint is created (keep it with your other secrets).
let secret = "";
let onEvent = (_event) => {};
const receiver = createServer(async (req, res) => {
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  try {
    const event = verifyWebhook(secret, Buffer.concat(chunks), req.headers);
    onEvent(event); // deliveries are at least once: deduplicate on event.id
    res.writeHead(204).end();
  } catch (error) {
    res.writeHead(error instanceof WebhookVerificationError ? 400 : 500).end();
  }
});
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", resolve));

// Register the receiver. svc takes an http://127.0.0.1 URL only when it runs with
// SVC_WEBHOOK_ALLOW_PRIVATE=true (a local trial); in production register your public https URL once.
const endpoint = await unwrap(svc.POST("/v1/webhooks", { body: { url: `http://127.0.0.1:${receiver.address().port}/svc-hooks` } }));
secret = endpoint.secret;

// A user, and a token for the user's app to upload with.
const user = await unwrap(svc.POST("/v1/users", { body: { external_ref: `customer-${Date.now()}` } }));
const { token } = await unwrap(svc.POST("/v1/users/{id}/tokens", { params: { path: { id: user.id } }, body: { scopes: ["upload"], ttl_seconds: 3600 } }));
const written = new Promise((resolve) => {
  onEvent = (event) => {
    if (event.type === "data.written" && event.data.user_id === user.id) resolve(event);
  };
});

// What the app would send: five heart rate readings of a Bluetooth strap, a minute apart.
const start = new Date(Date.now() - 10 * 60_000);
const lines = [72, 75, 71, 80, 78].map((bpm, i) =>
  JSON.stringify({ characteristic: "2a37", value: `00${bpm.toString(16)}`, received_at: new Date(start.getTime() + i * 60_000).toISOString() }),
);
const asApp = createRestClient({ baseUrl, token });
const accepted = await upload(asApp, "bluetooth", gzipSync(lines.join("\n")), { contentType: "application/x-ndjson" });
let state;
do {
  await new Promise((resolve) => setTimeout(resolve, 250));
  state = await unwrap(asApp.GET("/v1/ingest/uploads/{upload_id}", { params: { path: { upload_id: accepted.upload_id } } }));
} while (state.status !== "processed" && state.status !== "failed");

// Every sample, two per page: paginate follows next_cursor.
const samples = [];
for await (const sample of paginate((cursor) =>
  unwrap(svc.GET("/v1/users/{id}/samples", { params: { path: { id: user.id }, query: { type: "heart_rate", start: start.toISOString(), cursor, limit: 2 } } })),
)) {
  samples.push(`${sample.start_date} ${sample.value} ${sample.unit}`);
}

const event = await written;
console.log(JSON.stringify({ user_id: user.id, upload: state.status, samples, event: { id: event.id, type: event.type, types: event.data.types } }));

await unwrap(svc.DELETE("/v1/webhooks/{webhook_id}", { params: { path: { webhook_id: endpoint.id } } }));
receiver.close();
