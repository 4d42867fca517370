import { z } from "zod";
import { callProcedure, procedureDescription } from "../router-procedures.ts";
import type { ToolDefinition } from "../tool-definition.ts";
import { answerSchema } from "../results/output-schema.ts";
import { capRecords, readRecords } from "../results/read-records.ts";
import type { RecordShape } from "../results/record-shape.ts";
import { ECG_RECORDING } from "../results/record-shapes.ts";
import { COMPACT_ANSWER, pageReader, perUserArguments } from "./record-list-tool.ts";
import { userIdFor } from "./user-scope.ts";

type Recording = { voltages: number[]; sampling_frequency_hz: number } & Record<string, unknown>;

const ZVoltageSummary = z
  .object({
    count: z.number().int().describe("Number of voltage samples."),
    first_offset_seconds: z.number().nullable().describe("Offset of the first sample from start_date, seconds (0); null without samples."),
    last_offset_seconds: z.number().nullable().describe("Offset of the last sample from start_date, seconds; null without samples."),
    lowest_microvolts: z.number().nullable().describe("Lowest voltage, µV; null without samples."),
    highest_microvolts: z.number().nullable().describe("Highest voltage, µV; null without samples."),
  })
  .describe("With recording_id: the extent and range of the stored voltage samples, which are never returned.");

/** A recording as the list gives it, or (with recording_id) with its voltage summary. */
const ECG_WITH_SUMMARY: RecordShape = { ...ECG_RECORDING, schema: ECG_RECORDING.schema.extend({ voltage_summary: ZVoltageSummary.optional() }) };

/** What an assistant gets instead of the voltage samples: their extent and range. */
function voltageSummary(voltages: readonly number[], samplingFrequencyHz: number): z.infer<typeof ZVoltageSummary> {
  if (voltages.length === 0) return { count: 0, first_offset_seconds: null, last_offset_seconds: null, lowest_microvolts: null, highest_microvolts: null };
  let lowest = Infinity;
  let highest = -Infinity;
  for (const value of voltages) {
    lowest = Math.min(lowest, value);
    highest = Math.max(highest, value);
  }
  return {
    count: voltages.length,
    first_offset_seconds: 0,
    last_offset_seconds: (voltages.length - 1) / samplingFrequencyHz,
    lowest_microvolts: lowest,
    highest_microvolts: highest,
  };
}

export const getEcgRecordings: ToolDefinition = {
  name: "get_ecg_recordings",
  title: "ECG recordings",
  description: [
    "A user's ECG recordings: metadata only (start, duration, sampling frequency, average heart rate, symptoms). classification is the recording device's own reading, not a diagnosis.",
    "Units: average_heart_rate in count/min; sampling_frequency_hz in samples per second; sample_count a count.",
    "With recording_id it returns that one recording with voltage_summary (count, first and last offset in seconds from the start, lowest and highest voltage in microvolts); the voltage samples themselves are never returned.",
    COMPACT_ANSWER,
    procedureDescription("ecg.listEcgRecordings"),
  ].join(" "),
  inputSchema: perUserArguments("ecg.listEcgRecordings").extend({
    recording_id: z.uuid().optional().describe("One recording's id: return it with a summary of its voltage samples."),
  }),
  outputSchema: answerSchema([ECG_WITH_SUMMARY]),
  async run(ctx, { user_id, recording_id, ...args }) {
    const id = userIdFor(ctx, user_id);
    if (recording_id === undefined) return readRecords({ shape: ECG_RECORDING, read: pageReader(ctx, "ecg.listEcgRecordings", id), args, order: "oldest_first" });
    const { voltages, ...recording } = (await callProcedure(ctx.api, "ecg.getEcgRecording", { id, ecg_id: recording_id })) as Recording;
    return capRecords(ECG_WITH_SUMMARY, [{ ...recording, voltage_summary: voltageSummary(voltages, recording.sampling_frequency_hz) }]);
  },
};
