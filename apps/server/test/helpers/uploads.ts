import { expect } from "vitest";
import type { TestService } from "./test-service.ts";

/** POSTs NDJSON lines (objects are JSON-encoded, strings sent as they are) to /v1/ingest/{route} with a user token. */
export function uploadNdjson(svc: TestService, token: string, route: string, lines: unknown[]) {
  return svc.call(`/v1/ingest/${route}`, {
    method: "POST",
    rawBody: lines.map((line) => (typeof line === "string" ? line : JSON.stringify(line))).join("\n"),
    headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
  });
}

/** Uploads NDJSON and waits until the ETL processed it (fails on a failed raw object); the raw object. */
export async function uploadAndProcess(svc: TestService, token: string, route: string, lines: unknown[]) {
  return processed(svc, await uploadNdjson(svc, token, route, lines));
}

/** Waits until the ETL processed an accepted upload (fails on another answer than 202, or a failed raw object); the raw object. */
export async function processed(svc: TestService, answer: { status: number; text: string; body: { upload_id: string } }) {
  expect(answer.status, answer.text).toBe(202);
  for (let i = 0; i < 150; i++) {
    const raw = await svc.db.rawObject.findFirst({ where: { id: answer.body.upload_id } });
    if (raw?.status === "processed") return raw;
    expect(raw?.status).not.toBe("failed");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the ETL did not process the upload");
}

/** Polls GET /v1/deletions/{job_id} until the job is done or failed; its last answer. */
export async function waitForDeletionJob(svc: TestService, key: string, jobId: string) {
  for (let i = 0; i < 150; i++) {
    const job = await svc.call(`/v1/deletions/${jobId}`, { key });
    if (job.body.status === "done" || job.body.status === "failed") return job;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the deletion job did not end");
}

/** An NDJSON line of POST /v1/ingest/bluetooth: a Heart Rate Measurement (0x2A37), flags 0x00 (uint8), `bpm`. */
export const heartRateLine = (bpm: number, at: string) =>
  JSON.stringify({ characteristic: "2a37", value: `00${bpm.toString(16).padStart(2, "0")}`, received_at: at, device: "HRM-Pro" });
