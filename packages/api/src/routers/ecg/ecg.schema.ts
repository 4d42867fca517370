import { z } from "zod";
import { ZProvenance } from "../../schemas/records.ts";

export const ZEcgRecording = z.object({
  id: z.uuid().describe("The ECG recording's id."),
  start_date: z.iso.datetime().describe("When the recording started."),
  end_date: z.iso.datetime().describe("When it ended."),
  classification: z
    .string()
    .nullable()
    .describe("The device's reading as snake_case, e.g. `sinus_rhythm`, `atrial_fibrillation`, `inconclusive`; null when none."),
  average_heart_rate: z.number().nullable().describe("Average heart rate during the recording, in beats per minute; null when not given."),
  sampling_frequency_hz: z.number().describe("Voltage samples per second."),
  lead_name: z.string().nullable().describe("The lead recorded, e.g. `Apple Watch Simulating Lead I`; null when not given."),
  sample_count: z.number().int().describe("Number of voltage samples."),
  symptoms: z.array(z.string()).describe("Symptoms the user reported with the recording, as snake_case codes."),
  source_name: z.string().nullable().describe("The app or device name as the source reported it."),
  external_id: z.string().nullable().describe("The provider's id of the record."),
  metadata: z.record(z.string(), z.unknown()).describe("Provider fields as sent, plus `timezone`."),
  ...ZProvenance,
});

export const ZEcgRecordingWithVoltages = ZEcgRecording.extend({
  voltages: z.array(z.number()).describe("The voltage samples in microvolts (µV), in time order, sampling_frequency_hz per second."),
});
