import { z } from "zod";
import { callProcedure, procedureDescription } from "../router-procedures.ts";
import type { ToolDefinition } from "../tool-definition.ts";
import { fromPage } from "../tool-result.ts";
import { perUserArguments } from "./record-list-tool.ts";
import { userIdFor } from "./user-scope.ts";

type Recording = { voltages: number[]; sampling_frequency_hz: number } & Record<string, unknown>;

/** What an assistant gets instead of the voltage samples: their extent and range. */
function voltageSummary(voltages: readonly number[], samplingFrequencyHz: number) {
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
  description:
    "A user's ECG recordings: metadata only (start, duration, sampling frequency, average heart rate, symptoms). classification is the recording device's own reading, not a diagnosis. " +
    "With recording_id it returns that one recording with voltage_summary (count, first and last offset in seconds from the start, lowest and highest voltage in microvolts); the voltage samples themselves are never returned. " +
    procedureDescription("ecg.listEcgRecordings"),
  inputSchema: perUserArguments("ecg.listEcgRecordings").extend({
    recording_id: z.uuid().optional().describe("One recording's id: return it with a summary of its voltage samples."),
  }),
  async run(ctx, { user_id, recording_id, ...args }) {
    const id = userIdFor(ctx, user_id);
    if (recording_id === undefined) return fromPage((await callProcedure(ctx.api, "ecg.listEcgRecordings", { ...args, id })) as { data: unknown[]; next_cursor: string | null });
    const { voltages, ...recording } = (await callProcedure(ctx.api, "ecg.getEcgRecording", { id, ecg_id: recording_id })) as Recording;
    return {
      records: [{ ...recording, voltage_summary: voltageSummary(voltages, recording.sampling_frequency_hz) }],
      next_cursor: null,
      truncated: false,
    };
  },
};
