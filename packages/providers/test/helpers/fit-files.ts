// FIT files built for tests with Garmin's FIT SDK encoder (never hand-made bytes), and the one
// change the encoder cannot make: compressed-timestamp record headers, as older Garmin
// watches (Forerunner 70/110/405) write them.

import {
  CrcCalculator,
  Decoder,
  Encoder,
  Profile,
  Stream,
  type ActivityMesg,
  type Encodable,
  type EventMesg,
  type FileIdMesg,
  type LapMesg,
  type MonitoringInfoMesg,
  type MonitoringMesg,
  type RecordMesg,
  type SessionMesg,
} from "@garmin/fitsdk";

type MesgName = "FILE_ID" | "RECORD" | "EVENT" | "LAP" | "SESSION" | "ACTIVITY" | "MONITORING" | "MONITORING_INFO";
export const MESG_NUM = Profile.MesgNum as Readonly<Record<MesgName, number>>;

/** A message the tests write, typed by the SDK's profile. */
export type FitMesg =
  | Encodable<FileIdMesg>
  | Encodable<RecordMesg>
  | Encodable<EventMesg>
  | Encodable<LapMesg>
  | Encodable<SessionMesg>
  | Encodable<ActivityMesg>
  | Encodable<MonitoringInfoMesg>
  | Encodable<MonitoringMesg>;

/** A FIT file (14-byte header, little-endian) of the messages in order, written by the SDK's Encoder. */
export function encodeFit(messages: readonly FitMesg[]): Uint8Array {
  const encoder = new Encoder();
  for (const mesg of messages) encoder.writeMesg(mesg);
  return encoder.close();
}

const after = (start: Date, seconds: number) => new Date(start.getTime() + seconds * 1000);

/**
 * An indoor ride shaped like the Onelap app's files: the session's timestamp equals its
 * start_time, and its total_elapsed_time (720 s) says how long it lasted. Records every 5 s
 * from 1 s after the start; every 10th without a position, every 7th with cadence 0.
 */
export function onelapRide(): Uint8Array {
  const start = new Date("2024-03-05T18:00:00Z");
  const records = Array.from({ length: 144 }, (_, i) => ({
    mesgNum: MESG_NUM.RECORD,
    timestamp: after(start, 1 + 5 * i),
    ...(i % 10 === 0 ? {} : { positionLat: 629_145_600 + i * 1000, positionLong: 159_383_552 + i * 1000 }),
    heartRate: 120 + (i % 30),
    cadence: i % 7 === 0 ? 0 : 85,
    distance: i * 40,
  }));
  return encodeFit([
    { mesgNum: MESG_NUM.FILE_ID, type: "activity", manufacturer: "onelap", product: 1, serialNumber: 1234, timeCreated: start },
    ...records,
    { mesgNum: MESG_NUM.SESSION, timestamp: start, startTime: start, totalElapsedTime: 720, totalTimerTime: 720, sport: "cycling", subSport: "virtualActivity", totalDistance: 5720 },
    { mesgNum: MESG_NUM.ACTIVITY, timestamp: start, numSessions: 1, type: "manual", event: "activity", eventType: "stop" },
  ]);
}

/**
 * A run written as the SDK writes it, timestamps in several places in the definitions: records
 * every 1 to 4 s, a 40 s pause (too long for a compressed header), events and laps.
 */
export function plainRun(start = new Date("2012-06-02T07:30:00Z")): Uint8Array {
  const steps = [1, 2, 3, 4, 1, 1, 3, 2, 4, 4, 2, 1, 3, 40, 1, 2, 3, 4, 2, 2, 1, 3, 4, 1];
  let t = 0;
  const records = steps.flatMap((step, i) => {
    t += step;
    // The timestamp last: the SDK writes fields in the order given.
    const record: FitMesg = {
      mesgNum: MESG_NUM.RECORD,
      positionLat: 500_000_000 + i * 997,
      positionLong: -1_400_000_000 - i * 991,
      heartRate: 140 + i,
      distance: i * 4.5,
      timestamp: after(start, t),
    };
    if (i !== 12) return [record];
    const stop: FitMesg = { mesgNum: MESG_NUM.EVENT, timestamp: after(start, t), event: "timer", eventType: "stopAll" };
    return [record, stop, { ...stop, timestamp: after(start, t + 40), eventType: "start" }];
  });
  const end = after(start, t);
  return encodeFit([
    { mesgNum: MESG_NUM.FILE_ID, type: "activity", manufacturer: "garmin", product: 1018, serialNumber: 3_000_001, timeCreated: start },
    { mesgNum: MESG_NUM.EVENT, timestamp: start, event: "timer", eventType: "start" },
    ...records,
    { mesgNum: MESG_NUM.LAP, timestamp: end, startTime: start, totalElapsedTime: t, totalTimerTime: t - 40, event: "lap", eventType: "stop" },
    { mesgNum: MESG_NUM.SESSION, timestamp: end, startTime: start, totalElapsedTime: t, totalTimerTime: t - 40, sport: "running", numLaps: 1, firstLapIndex: 0 },
    { mesgNum: MESG_NUM.ACTIVITY, timestamp: end, numSessions: 1, type: "manual", event: "activity", eventType: "stop" },
  ]);
}

/** The record messages of a FIT file as the SDK reads them (for tests outside this package, which do not import the SDK). */
export function sdkRecords(fit: Uint8Array): RecordMesg[] {
  return new Decoder(Stream.fromByteArray(fit)).read().messages.recordMesgs ?? [];
}

/** Seconds since the FIT epoch (1989-12-31T00:00:00Z): what FIT stores for a time. */
export function fitSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000) - 631_065_600;
}

/**
 * The same file with compressed-timestamp headers wherever the FIT protocol allows one: a data
 * message of local type 0 to 3 whose definition has a 4-byte timestamp (field 253) less than
 * 32 s after the last timestamp before it. Such a message loses its timestamp bytes and gets
 * the header 0b1TTOOOOO (T: local type, O: the timestamp's low 5 bits), after a definition of
 * its local type without field 253 (written when not already active); a later normal message
 * of that type gets the file's own definition again. The header's data size, the header CRC
 * and the file CRC are set anew. For a single little-endian file as encodeFit writes it.
 * Gives the new file and how many messages got a compressed header.
 */
export function withCompressedTimestamps(fit: Uint8Array): { bytes: Uint8Array; compressed: number } {
  const headerSize = fit[0] ?? 14;
  const dataEnd = headerSize + new DataView(fit.buffer, fit.byteOffset).getUint32(4, true);
  const definitions: Array<{ own: Uint8Array; compressed: Uint8Array; size: number; timestampAt: number | undefined }> = [];
  const active: Array<"own" | "compressed"> = [];
  const out: number[] = [...fit.subarray(0, headerSize)];
  let last: number | undefined;
  let compressed = 0;
  for (let at = headerSize; at < dataEnd; ) {
    const header = fit[at] ?? 0;
    const local = header & 0x0f;
    if (header & 0x40) {
      // Definition: header, reserved, architecture, global number (2), field count, fields (3 bytes each).
      const count = fit[at + 5] ?? 0;
      const own = fit.slice(at, at + 6 + 3 * count);
      const fields = Array.from({ length: count }, (_, i) => own.subarray(6 + 3 * i, 9 + 3 * i));
      const timestampIndex = fields.findIndex((f) => f[0] === 253 && f[1] === 4);
      const kept = fields.filter((_, i) => i !== timestampIndex);
      const compressed = Uint8Array.from([...own.subarray(0, 5), kept.length, ...kept.flatMap((f) => [...f])]);
      const sizeBefore = (index: number) => fields.slice(0, index).reduce((n, f) => n + (f[1] ?? 0), 0);
      definitions[local] = { own, compressed, size: sizeBefore(count), timestampAt: timestampIndex < 0 ? undefined : sizeBefore(timestampIndex) };
      active[local] = "own";
      out.push(...own);
      at += own.length;
      continue;
    }
    const definition = definitions[local];
    if (!definition) throw new Error(`no definition for local type ${local}`);
    const body = fit.subarray(at + 1, at + 1 + definition.size);
    at += 1 + definition.size;
    const t = definition.timestampAt;
    const timestamp = t === undefined ? undefined : new DataView(body.buffer, body.byteOffset + t).getUint32(0, true);
    const compressible = local <= 3 && timestamp !== undefined && last !== undefined && timestamp - last >= 0 && timestamp - last < 32;
    if (timestamp !== undefined) last = timestamp;
    const wanted = compressible ? "compressed" : "own";
    if (active[local] !== wanted) out.push(...definition[wanted]);
    active[local] = wanted;
    if (!compressible || t === undefined || timestamp === undefined) {
      out.push(header, ...body);
      continue;
    }
    out.push(0x80 | (local << 5) | (timestamp & 0x1f), ...body.subarray(0, t), ...body.subarray(t + 4));
    compressed++;
  }
  out.push(0, 0);
  const file = Uint8Array.from(out);
  const view = new DataView(file.buffer);
  view.setUint32(4, file.length - headerSize - 2, true);
  if (headerSize === 14) view.setUint16(12, CrcCalculator.calculateCRC(file, 0, 12), true);
  view.setUint16(file.length - 2, CrcCalculator.calculateCRC(file, 0, file.length - 2), true);
  return { bytes: file, compressed };
}
