import type { Observation, ObservationComponent } from "fhir/r4.js";
import type { EcgRecordingDto } from "../../records/index.ts";
import { LOINC, MDC, UCUM } from "../fhir-systems.ts";
import { codeOrNull, figureComponent, observationBase, textOrNull, UNKNOWN_VALUE, type ObservationContext, withComponents } from "./observation-parts.ts";

/** The recording's voltages in microvolts as SampledData, one value every 1000 / Hz milliseconds. */
function voltageComponent(ctx: ObservationContext, recording: EcgRecordingDto, microvolts: readonly number[]): ObservationComponent {
  const code = {
    coding: [
      { system: MDC, code: "131328", display: "MDC_ECG_ELEC_POTL" },
      { system: ctx.systems.figure, code: "voltages" },
    ],
    text: textOrNull(recording.lead_name) ?? "ECG",
  };
  if (microvolts.length === 0) return { code, dataAbsentReason: UNKNOWN_VALUE };
  return {
    code,
    valueSampledData: {
      origin: { value: 0, unit: "uV", system: UCUM, code: "uV" },
      period: 1000 / recording.sampling_frequency_hz,
      dimensions: 1,
      data: microvolts.join(" "),
    },
  };
}

/** `ecg-{id}`: an ECG recording with its voltage samples; valued with the device's classification, when it gave one. */
export function ecgObservation(ctx: ObservationContext, recording: EcgRecordingDto, microvolts: readonly number[]): Observation {
  const { systems } = ctx;
  const classification = textOrNull(recording.classification);
  return {
    ...observationBase(ctx, `ecg-${recording.id}`, recording, {
      code: {
        coding: [
          { system: LOINC, code: "11524-6", display: "EKG study" },
          { system: systems.recordType, code: "ecg_recording" },
        ],
        text: "ECG",
      },
      category: null,
      effective: { effectivePeriod: { start: recording.start_date, end: recording.end_date } },
    }),
    ...(classification && {
      valueCodeableConcept: { coding: [{ system: systems.ecgClassification, code: codeOrNull(classification) ?? classification }], text: classification },
    }),
    ...withComponents([
      voltageComponent(ctx, recording, microvolts),
      ...figureComponent(systems, { field: "average_heart_rate", value: recording.average_heart_rate, ucum: "/min" }),
    ]),
  };
}
