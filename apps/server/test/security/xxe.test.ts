// XXE regression tests of every XML input: GPX and TCX (POST /v1/ingest/activity-files) and
// Apple Health's export.xml (POST /v1/ingest/apple-health, plain or in export.zip). Documents
// declare external entities (a local file, a local HTTP server that records every hit),
// parameter entities, an external DTD and nested entities (billion laughs). Whatever the
// answer (4xx, or accepted and then processed or failed), no entity is expanded: no stored
// record, rejection, error or log line holds the file's content or an expansion, and the
// local server is never called.
import { readFileSync } from "node:fs";
import { recordSecrets, startWebhookReceiver, type WebhookReceiver } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { zipOf } from "../../../../packages/providers/test/helpers/zip-writer.ts";
import { createUser, mintToken } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";

/** The first line of /etc/passwd: expanded file content would contain it. */
const PASSWD_LINE = readFileSync("/etc/passwd", "utf8").split("\n")[0]!;
/** Ten levels of ten: a billion copies if expanded. */
const LAUGH = "lol-laugh-marker";

let svc: TestService;
let key: string;
let hits: WebhookReceiver;

beforeAll(async () => {
  svc = await startTestService();
  key = (await svc.createTenant()).api_key;
  hits = await startWebhookReceiver();
  // Found in any log line of the run, they fail the run (leak scan of the global setup).
  recordSecrets(PASSWD_LINE, `${LAUGH}${LAUGH}`);
});
afterAll(async () => {
  await hits?.close();
  await svc?.stop();
});

/** DOCTYPEs with an internal subset, each defining the general entity `xxe` used in the body. */
function doctypes(root: string): Record<string, string> {
  const remote = `http://127.0.0.1:${hits.port}`;
  const laughs = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join("");
  return {
    "external file entity": `<!DOCTYPE ${root} [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>`,
    "external http entity": `<!DOCTYPE ${root} [<!ENTITY xxe SYSTEM "${remote}/entity">]>`,
    "parameter entity": `<!DOCTYPE ${root} [<!ENTITY % dtd SYSTEM "${remote}/parameter.dtd"> %dtd; <!ENTITY % file SYSTEM "file:///etc/passwd"><!ENTITY xxe "%file;">]>`,
    "external DTD": `<!DOCTYPE ${root} SYSTEM "${remote}/external.dtd">`,
    "billion laughs": `<!DOCTYPE ${root} [<!ENTITY l0 "${LAUGH}">${laughs}<!ENTITY xxe "&l9;">]>`,
  };
}

const gpx = (doctype: string) => `<?xml version="1.0" encoding="UTF-8"?>
${doctype}
<gpx version="1.1" creator="&xxe;" xmlns="http://www.topografix.com/GPX/1/1">
  <metadata><name>&xxe;</name></metadata>
  <trk><name>&xxe;</name><type>running</type><trkseg>
    <trkpt lat="52.5" lon="13.4"><ele>10</ele><time>2026-03-01T07:00:00Z</time></trkpt>
    <trkpt lat="52.501" lon="13.4"><ele>11</ele><time>2026-03-01T07:01:00Z</time></trkpt>
    <trkpt lat="52.502" lon="13.4"><ele>12</ele><time>2026-03-01T07:02:00Z</time></trkpt>
  </trkseg></trk>
</gpx>`;

const tcx = (doctype: string) => `<?xml version="1.0" encoding="UTF-8"?>
${doctype}
<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
  <Activities><Activity Sport="Running"><Id>2026-03-01T07:00:00Z</Id><Notes>&xxe;</Notes>
    <Lap StartTime="2026-03-01T07:00:00Z"><TotalTimeSeconds>120</TotalTimeSeconds><DistanceMeters>300</DistanceMeters><Calories>20</Calories>
      <Intensity>Active</Intensity><TriggerMethod>Manual</TriggerMethod>
      <Track>
        <Trackpoint><Time>2026-03-01T07:00:00Z</Time><DistanceMeters>0</DistanceMeters><HeartRateBpm><Value>120</Value></HeartRateBpm></Trackpoint>
        <Trackpoint><Time>2026-03-01T07:02:00Z</Time><DistanceMeters>300</DistanceMeters><HeartRateBpm><Value>130</Value></HeartRateBpm></Trackpoint>
      </Track>
    </Lap>
    <Creator><Name>&xxe;</Name></Creator>
  </Activity></Activities>
</TrainingCenterDatabase>`;

const exportXml = (doctype: string) => `<?xml version="1.0" encoding="UTF-8"?>
${doctype}
<HealthData locale="en_US">
 <ExportDate value="2026-03-02 10:00:00 +0000"/>
 <Me HKCharacteristicTypeIdentifierBiologicalSex="&xxe;"/>
 <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="&xxe;" sourceVersion="1" unit="count/min" creationDate="2026-03-01 08:00:00 +0000" startDate="2026-03-01 08:00:00 +0000" endDate="2026-03-01 08:00:00 +0000" value="61">
  <MetadataEntry key="HKMetadataKeyHeartRateMotionContext" value="&xxe;"/>
 </Record>
 <Record type="HKQuantityTypeIdentifierStepCount" sourceName="Watch" unit="count" creationDate="2026-03-01 08:00:00 +0000" startDate="2026-03-01 08:00:00 +0000" endDate="2026-03-01 08:05:00 +0000" value="120"/>
</HealthData>`;

async function upload(route: string, contentType: string, body: string | Buffer) {
  const user = await createUser(svc, key);
  const token = await mintToken(svc, key, user, ["upload"]);
  const answer = await svc.call(`/v1/ingest/${route}`, { method: "POST", rawBody: body as string, headers: { authorization: `Bearer ${token}`, "content-type": contentType } });
  return { user, answer };
}

/** Waits until the ETL is done with the upload (processed or failed); the raw object row. */
async function settled(uploadId: string) {
  for (let i = 0; i < 300; i++) {
    const raw = await svc.db.rawObject.findFirst({ where: { id: uploadId } });
    if (raw && !["pending", "receiving", "processing"].includes(raw.status)) return raw;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the ETL did not finish the upload");
}

/** Everything stored or readable about the user, as text. */
async function everythingOf(user: string): Promise<string> {
  const where = { userId: user };
  const rows = await Promise.all([
    svc.db.rawObject.findMany({ where, select: { status: true, summary: true, error: true } }),
    svc.db.quantitySample.findMany({ where }),
    svc.db.categorySample.findMany({ where, include: { series: true } }),
    svc.db.workout.findMany({ where }),
    svc.db.rejectedRecord.findMany({ where }),
  ]);
  const reads = await Promise.all(
    [`/v1/users/${user}/workouts?view=all`, `/v1/users/${user}/samples?type=heart_rate&view=all`, `/v1/users/${user}/coverage`].map((path) => svc.call(path, { key })),
  );
  return JSON.stringify(rows, (_k, value) => (typeof value === "bigint" ? value.toString() : value)) + reads.map((read) => read.text).join("\n");
}

function expectNoExpansion(text: string, what: string) {
  expect(text, what).not.toContain(PASSWD_LINE);
  expect(text, what).not.toContain("root:x:0:0");
  expect(text, what).not.toContain(`${LAUGH}${LAUGH}`);
}

const base64 = (xml: string) => Buffer.from(xml).toString("base64");
const CASES: Array<{ name: string; route: string; contentType: string; document: (doctype: string) => string; encode: (xml: string) => string | Buffer; root: string }> = [
  { name: "GPX", route: "activity-files", contentType: "text/plain", root: "gpx", document: gpx, encode: base64 },
  { name: "TCX", route: "activity-files", contentType: "text/plain", root: "TrainingCenterDatabase", document: tcx, encode: base64 },
  { name: "export.xml", route: "apple-health", contentType: "application/xml", root: "HealthData", document: exportXml, encode: (xml) => xml },
  {
    name: "export.zip",
    route: "apple-health",
    contentType: "application/zip",
    root: "HealthData",
    document: exportXml,
    encode: (xml) => zipOf([{ name: "apple_health_export/export.xml", data: Buffer.from(xml) }]),
  },
];

describe.each(CASES)("$name", ({ route, contentType, document, encode, root }) => {
  it("without entities is stored (so a refusal below is about the entities)", async () => {
    const { user, answer } = await upload(route, contentType, encode(document("").replaceAll("&xxe;", "plain")));
    expect(answer.status, answer.text).toBe(202);
    expect((await settled(answer.body.upload_id)).status).toBe("processed");
    const stored = (await svc.db.workout.count({ where: { userId: user } })) + (await svc.db.quantitySample.count({ where: { userId: user } }));
    expect(stored).toBeGreaterThan(0);
  });

  it("with entities never expands one, never fetches, never reads the file", { timeout: 120_000 }, async () => {
    for (const [attack, doctype] of Object.entries(doctypes(root))) {
      const logsBefore = svc.logs.length;
      const { user, answer } = await upload(route, contentType, encode(document(doctype)));
      expect([202, 400, 413, 415, 422], `${attack}: ${answer.text}`).toContain(answer.status);
      expectNoExpansion(answer.text, attack);
      if (answer.status === 202) {
        const raw = await settled(answer.body.upload_id);
        expect(["processed", "failed"], attack).toContain(raw.status);
      }
      expectNoExpansion(await everythingOf(user), attack);
      expectNoExpansion(svc.logs.slice(logsBefore).join("\n"), attack);
    }
    expect(hits.connections).toBe(0);
    expect(hits.requests).toHaveLength(0);
  });
});
