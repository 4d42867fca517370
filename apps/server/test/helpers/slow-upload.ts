import { request, type IncomingHttpHeaders } from "node:http";

export interface SlowUploadAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  /** The answer's JSON (a problem, or the 202's body). */
  body: any;
}

/** An upload whose body the test sends piece by piece (chunked, no Content-Length), as a slow client does. */
export interface SlowUpload {
  /** Sends more of the body. */
  send(text: string): void;
  /** Ends the body; resolves with the answer. */
  end(): Promise<SlowUploadAnswer>;
  /** Breaks the connection off mid-body, as a client that went away. */
  abort(): void;
  /** The answer once it came, or "broken" when the connection broke before one. */
  answer: Promise<SlowUploadAnswer | "broken">;
}

/** Starts POST /v1/ingest/<route> of NDJSON at `url` with the user's token; its headers go out at once. */
export function startSlowUpload(url: string, token: string, route = "apple-health"): SlowUpload {
  const req = request(`${url}/v1/ingest/${route}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
  });
  const answer = new Promise<SlowUploadAnswer | "broken">((resolve) => {
    req.on("response", (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined }));
      res.on("error", () => resolve("broken"));
    });
    req.on("error", () => resolve("broken"));
  });
  req.flushHeaders();
  return {
    send: (text) => void req.write(text),
    async end() {
      req.end();
      const result = await answer;
      if (result === "broken") throw new Error("the connection broke before an answer");
      return result;
    },
    abort: () => req.destroy(),
    answer,
  };
}

/** An Apple Health NDJSON line of one heart rate sample (n picks its time and uuid). */
export const heartRateSampleLine = (n: number) =>
  `${JSON.stringify({ kind: "quantity", uuid: `slow-${n}`, type: "HKQuantityTypeIdentifierHeartRate", value: 60 + (n % 40), unit: "count/min", start: new Date(Date.UTC(2026, 0, 1, 0, 0, n)).toISOString() })}\n`;
