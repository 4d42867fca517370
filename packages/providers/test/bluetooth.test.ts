import { fixturesDir } from "@svc/testing";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fc, test as propTest } from "@fast-check/vitest";
import { findQuantityType, toStorageUnit, type QuantitySampleRecord } from "@svc/core";
import { describe, expect, it } from "vitest";
import { decodeBloodPressureMeasurement } from "../src/bluetooth/blood-pressure.ts";
import { checkBluetoothLine, parseBluetoothLines, parseBluetoothUpload } from "../src/bluetooth/bluetooth-upload.ts";
import { decodeBodyCompositionMeasurement } from "../src/bluetooth/body-composition.ts";
import { formatDeviceTime, hexToBytes, isFailure, type DecodeFailure, type DeviceTime } from "../src/bluetooth/bytes.ts";
import { decodeGlucoseMeasurement, GLUCOSE_SENSOR_STATUS_BITS } from "../src/bluetooth/glucose.ts";
import { decodeHeartRateMeasurement } from "../src/bluetooth/heart-rate.ts";
import { float32, float32Special, sfloat, sfloatSpecial } from "../src/bluetooth/ieee11073.ts";
import { decodePlxContinuousMeasurement } from "../src/bluetooth/plx-continuous.ts";
import { decodePlxSpotCheckMeasurement } from "../src/bluetooth/plx-spot-check.ts";
import { decodeTemperatureMeasurement } from "../src/bluetooth/temperature.ts";
import { decodeWeightMeasurement } from "../src/bluetooth/weight.ts";
import type { ParsedRecords } from "../src/parsed-records.ts";

// Public test vectors (Nordic, SpeziBluetooth, bluetooth-sig-python; see SOURCES.md there),
// read where they lie; never copied into the repository.
const FIXTURES = fixturesDir();

interface Vector {
  characteristic: string;
  uuid: string;
  hex: string;
  valid: boolean;
  decoded: Record<string, unknown> | null;
  source: { test: string };
}

const VECTORS = JSON.parse(readFileSync(join(FIXTURES, "gatt_vectors.json"), "utf8")) as Vector[];

// A time after every vector's own timestamp, with an offset the device clock is read in.
const RECEIVED_AT = "2025-06-01T12:00:00.000Z";

function line(characteristic: string, value: string, receivedAt = RECEIVED_AT, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ characteristic, value, received_at: receivedAt, ...extra });
}

function parseOne(characteristic: string, value: string, receivedAt = RECEIVED_AT, extra: Record<string, unknown> = {}): ParsedRecords {
  return parseBluetoothUpload(line(characteristic, value, receivedAt, extra));
}

function sampleOf(parsed: ParsedRecords, type: string): QuantitySampleRecord {
  const found = parsed.quantitySamples.filter((s) => s.type === type);
  expect(found, type).toHaveLength(1);
  return found[0] as QuantitySampleRecord;
}

function types(parsed: ParsedRecords): string[] {
  return parsed.quantitySamples.map((s) => s.type).sort();
}

function decoded<T extends object>(result: T | DecodeFailure): T {
  if (isFailure(result)) throw new Error(result.problem);
  return result;
}

function bytes(hex: string): Uint8Array {
  return hexToBytes(hex);
}

// Each decoder's result in the vocabulary of the vectors' `decoded` objects.
type Vocabulary = (value: Uint8Array) => Record<string, unknown> | DecodeFailure;

const contactWords: Record<string, unknown> = { not_supported: null, not_detected: false, detected: true };

function time(t: DeviceTime | null): Record<string, unknown> | null {
  return t === null ? null : { year: t.year, month: t.month, day: t.day, hours: t.hours, minutes: t.minutes, seconds: t.seconds };
}

const VOCABULARY: Record<string, Vocabulary> = {
  "0x2A37": (value) => {
    const m = decodeHeartRateMeasurement(value);
    if (isFailure(m)) return m;
    return {
      heart_rate: m.heartRate,
      sensor_contact: m.sensorContact,
      sensor_contact_nordic: contactWords[m.sensorContact],
      energy_expended: m.energyExpendedKj,
      energy_expended_kJ: m.energyExpendedKj,
      rr_intervals_raw_1_1024s: m.rrIntervals,
      rr_intervals_s: m.rrIntervals.map((rr) => rr / 1024),
    };
  },
  "0x2A35": (value) => {
    const m = decodeBloodPressureMeasurement(value);
    if (isFailure(m)) return m;
    return {
      unit: m.unit,
      systolic: m.systolic,
      diastolic: m.diastolic,
      mean_arterial_pressure: m.meanArterialPressure,
      timestamp: time(m.timestamp),
      pulse_rate: m.pulseRate,
      user_id: m.userId,
      measurement_status_raw: m.status?.raw ?? null,
      measurement_status: m.status && {
        body_movement_detected: m.status.bodyMovementDetected,
        cuff_too_loose: m.status.cuffTooLoose,
        irregular_pulse_detected: m.status.irregularPulseDetected,
        pulse_rate_range: m.status.pulseRateRange,
        improper_measurement_position: m.status.improperMeasurementPosition,
      },
    };
  },
  "0x2A1C": (value) => {
    const m = decodeTemperatureMeasurement(value);
    if (isFailure(m)) return m;
    return {
      unit: m.unit === "degC" ? "celsius" : "fahrenheit",
      temperature: m.temperature,
      timestamp: m.timestamp && formatDeviceTime(m.timestamp),
      temperature_type: m.temperatureType,
      temperature_type_name: m.temperatureTypeName,
    };
  },
  "0x2A18": (value) => {
    const m = decodeGlucoseMeasurement(value);
    if (isFailure(m)) return m;
    const status = m.sensorStatus ?? 0;
    return {
      sequence_number: m.sequenceNumber,
      base_time: formatDeviceTime(m.baseTime),
      time_offset_minutes: m.timeOffsetMinutes,
      glucose_concentration: m.concentration,
      unit: m.unit,
      type: m.type,
      type_name: m.typeName,
      sample_location: m.sampleLocation,
      sample_location_name: m.sampleLocationName,
      sensor_status_annunciation_raw: m.sensorStatus,
      sensor_status_bits_set: GLUCOSE_SENSOR_STATUS_BITS.flatMap((_, bit) => (status & (1 << bit) ? [bit] : [])),
      device_battery_low: m.sensorStatusNames.includes("device_battery_low"),
      general_device_fault: m.sensorStatusNames.includes("general_device_fault"),
      context_information_follows: m.contextInformationFollows,
    };
  },
  "0x2A9D": (value) => {
    const m = decodeWeightMeasurement(value);
    if (isFailure(m)) return m;
    return {
      weight: m.weight,
      unit: m.unit,
      timestamp: m.timestamp && formatDeviceTime(m.timestamp),
      user_id: m.userId,
      bmi: m.bmi,
      height: m.height,
      height_unit: m.heightUnit,
    };
  },
  "0x2A5F": (value) => {
    const m = decodePlxContinuousMeasurement(value);
    if (isFailure(m)) return m;
    return {
      spo2: m.spo2,
      pulse_rate: m.pulseRate,
      spo2_fast: m.spo2Fast,
      pulse_rate_fast: m.pulseRateFast,
      spo2_slow: m.spo2Slow,
      pulse_rate_slow: m.pulseRateSlow,
      measurement_status_raw: m.measurementStatus,
      measurement_status: m.measurementStatusNames,
      device_and_sensor_status_raw: m.deviceAndSensorStatus,
      device_and_sensor_status: m.deviceAndSensorStatusNames,
      pulse_amplitude_index: m.pulseAmplitudeIndex,
    };
  },
  "0x2A5E": (value) => {
    const m = decodePlxSpotCheckMeasurement(value);
    if (isFailure(m)) return m;
    return {
      spo2: m.spo2,
      pulse_rate: m.pulseRate,
      timestamp: m.timestamp && formatDeviceTime(m.timestamp),
      measurement_status_raw: m.measurementStatus,
      measurement_status: m.measurementStatusNames,
      device_and_sensor_status_raw: m.deviceAndSensorStatus,
      device_and_sensor_status: m.deviceAndSensorStatusNames,
      pulse_amplitude_index: m.pulseAmplitudeIndex,
    };
  },
};

/** The vector's expectation, with Nordic's sensor contact booleans and nulls for "no RR" read as ours. */
function expectation(vector: Vector): Record<string, unknown> {
  const expected: Record<string, unknown> = { ...vector.decoded };
  if (vector.uuid === "0x2A37") {
    const contact = expected.sensor_contact;
    if (contact === null || typeof contact === "boolean") {
      delete expected.sensor_contact;
      expected.sensor_contact_nordic = contact;
    }
    if (expected.rr_intervals_raw_1_1024s === null) expected.rr_intervals_raw_1_1024s = [];
  }
  if (vector.uuid === "0x2A35" && expected.timestamp !== null && typeof expected.timestamp === "object") {
    const { note: _note, ...timestamp } = expected.timestamp as Record<string, unknown>;
    expected.timestamp = timestamp;
  }
  // Derived by us, checked through the records below.
  delete expected.effective_time;
  return expected;
}

function pick(object: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.map((key) => [key, object[key]]));
}

/** Every sample's unit is one the sample writer converts to the type's storage unit. */
function expectWritable(parsed: ParsedRecords): void {
  for (const sample of parsed.quantitySamples) {
    const type = findQuantityType(sample.type);
    expect(type, sample.type).toBeDefined();
    if (!type) continue;
    const stored = toStorageUnit(type, sample.value, sample.unit);
    expect("error" in stored ? stored.error : null, `${sample.type} in ${sample.unit}`).toBeNull();
    expect(Number.isFinite(sample.value)).toBe(true);
  }
}

describe("GATT vectors", () => {
  it("reads all 32 vectors", () => {
    expect(VECTORS).toHaveLength(32);
    for (const vector of VECTORS) expect(Object.keys(VOCABULARY)).toContain(vector.uuid);
  });

  describe.each(VECTORS.filter((v) => v.valid).map((v) => [`${v.characteristic} ${v.hex} (${v.source.test})`, v] as const))(
    "valid %s",
    (_name, vector) => {
      it("decodes to the expected values", () => {
        const vocabulary = VOCABULARY[vector.uuid];
        if (!vocabulary) throw new Error(vector.uuid);
        const mine = vocabulary(bytes(vector.hex));
        if (isFailure(mine)) throw new Error(mine.problem);
        const expected = expectation(vector);
        expect(pick(mine, Object.keys(expected))).toEqual(expected);
      });

      it("gives records the sample writer takes, or a rejection naming why", () => {
        const parsed = parseOne(vector.uuid, vector.hex);
        expectWritable(parsed);
        const produced = parsed.quantitySamples.length + parsed.heartbeatSeries.length;
        if (vector.hex === "04FF") {
          // Contact supported but not detected: the strap's figure is noise.
          expect(produced).toBe(0);
          expect(parsed.rejected[0]?.reason).toBe("Heart Rate Measurement (0x2A37): sensor reports no skin contact");
        } else if (vector.hex === "1F0101320101000201FFFF") {
          // Nordic's RR intervals 1, 258, 65535 (1/1024 s): 1 ms is no heartbeat, so the RR part is refused.
          expect(types(parsed)).toEqual(["heart_rate"]);
          expect(parsed.heartbeatSeries).toEqual([]);
          expect(parsed.rejected.map((r) => r.recordKind)).toEqual(["heartbeat_series"]);
        } else {
          expect(produced).toBeGreaterThan(0);
          expect(parsed.rejected).toEqual([]);
        }
      });
    },
  );

  describe.each(VECTORS.filter((v) => !v.valid).map((v) => [`${v.characteristic} ${v.hex} (${v.source.test})`, v] as const))(
    "invalid %s",
    (_name, vector) => {
      it("does not decode", () => {
        const vocabulary = VOCABULARY[vector.uuid];
        if (!vocabulary) throw new Error(vector.uuid);
        expect(isFailure(vocabulary(bytes(vector.hex)))).toBe(true);
      });

      it("is rejected with nothing produced, naming the characteristic and not the value", () => {
        const parsed = parseOne(vector.uuid.toLowerCase().slice(2), vector.hex);
        expect(parsed.quantitySamples).toEqual([]);
        expect(parsed.heartbeatSeries).toEqual([]);
        expect(parsed.rejected).toHaveLength(1);
        const rejection = parsed.rejected[0];
        expect(rejection?.locator).toBe("line 1");
        expect(rejection?.recordKind).toBe("bluetooth_measurement");
        expect(rejection?.reason).toContain(`${vector.characteristic} (${vector.uuid})`);
        expect(rejection?.reason.toLowerCase()).not.toContain(vector.hex.toLowerCase());
      });
    },
  );

  it("places the glucose reading at base time + time offset", () => {
    const vector = VECTORS.find((v) => v.uuid === "0x2A18" && v.valid);
    const parsed = parseOne("2a18", vector?.hex ?? "");
    const sample = sampleOf(parsed, "blood_glucose");
    expect(sample.start_date.toISOString().slice(0, 19)).toBe(vector?.decoded?.effective_time);
    // 30 kg/L (Nordic's test value) is 3 000 000 mg/dL: a shift of the decimal point, no rounding noise.
    expect(sample.value).toBe(3_000_000);
    expect(sample.unit).toBe("mg/dL");
    expect(sample.metadata).toMatchObject({
      sequence_number: 1,
      glucose_sample_type: "capillary_plasma",
      sample_location: "finger",
      sensor_status: ["device_battery_low", "sample_size_insufficient", "sensor_temperature_too_low"],
      context_information_follows: true,
      time_source: "device",
    });
  });

  it("two encodings of one PLX reading give the same samples", () => {
    const a = parseOne("2a5f", "00E8F384F3");
    const b = parseOne("2a5f", "0064005A00");
    expect(a.quantitySamples.map((s) => [s.type, s.value])).toEqual(b.quantitySamples.map((s) => [s.type, s.value]));
    expect(types(a)).toEqual(["heart_rate", "oxygen_saturation"]);
  });
});

describe("IEEE 11073 numbers", () => {
  it("SFLOAT special values are absent, never numbers", () => {
    const specials = { 0x07ff: "nan", 0x0800: "nres", 0x07fe: "+inf", 0x0802: "-inf", 0x0801: "reserved" } as const;
    for (const [raw, name] of Object.entries(specials)) {
      expect(sfloat(Number(raw))).toBeNull();
      expect(sfloatSpecial(Number(raw))).toBe(name);
    }
    // The same mantissas with another exponent are plain numbers.
    expect(sfloat(0x17ff)).toBe(20470);
    expect(sfloatSpecial(0x17ff)).toBeNull();
  });

  it("SFLOAT has a signed 4-bit exponent and a signed 12-bit mantissa", () => {
    expect(sfloat(0xf0bd)).toBe(18.9); // 189 × 10^-1
    expect(sfloat(0xe366)).toBe(8.7); // 870 × 10^-2
    expect(sfloat(0x8001)).toBe(1e-8); // exponent -8, the smallest
    expect(sfloat(0x7001)).toBe(1e7); // exponent 7, the largest
    expect(sfloat(0x0fff)).toBe(-1); // mantissa -1
    expect(sfloat(0xffff)).toBe(-0.1);
    expect(sfloat(0x0801 + 0x1000)).toBe(-20470); // mantissa -2047, exponent 1
    expect(sfloat(0x0000)).toBe(0);
  });

  it("FLOAT special values are absent, never numbers", () => {
    const specials = { 0x007fffff: "nan", 0x00800000: "nres", 0x007ffffe: "+inf", 0x00800002: "-inf", 0x00800001: "reserved" } as const;
    for (const [raw, name] of Object.entries(specials)) {
      expect(float32(Number(raw))).toBeNull();
      expect(float32Special(Number(raw))).toBe(name);
    }
    expect(float32(0x017fffff)).toBe(83886070);
  });

  it("FLOAT has a signed 8-bit exponent and a signed 24-bit mantissa", () => {
    expect(float32(0xfe000eb0)).toBe(37.6); // 3760 × 10^-2
    expect(float32(0xff00016d)).toBe(36.5); // 365 × 10^-1
    expect(float32(0x00ffffff)).toBe(-1);
    expect(float32(0xfffffc18)).toBe(-100); // -1000 × 10^-1
    expect((float32(0x807fffff) ?? 0) / 8388607e-128).toBeCloseTo(1, 12); // the extreme exponents stay finite
    expect((float32(0x7f7fffff) ?? 0) / 8388607e127).toBeCloseTo(1, 12);
  });

  it("a special value in a measurement leaves that field out", () => {
    // Blood pressure: systolic NaN, diastolic 80, MAP NRes.
    const parsed = parseOne("2a35", "00ff0750000008");
    expect(types(parsed)).toEqual(["blood_pressure_diastolic"]);
    // Temperature +INF: nothing to store.
    const temperature = parseOne("2a1c", "00feff7f00");
    expect(temperature.quantitySamples).toEqual([]);
    expect(temperature.rejected[0]?.reason).toBe(
      "Temperature Measurement (0x2A1C): carries no value to store (absent or special values only)",
    );
  });
});

describe("units by flags", () => {
  it("heart rate as uint8 or uint16", () => {
    expect(sampleOf(parseOne("2a37", "0048"), "heart_rate").value).toBe(72);
    expect(sampleOf(parseOne("2a37", "012c01"), "heart_rate").value).toBe(300);
    expect(sampleOf(parseOne("2a37", "0048"), "heart_rate").unit).toBe("count/min");
  });

  it("blood pressure in mmHg or kPa", () => {
    expect(sampleOf(parseOne("2a35", "00780050005d00"), "blood_pressure_systolic")).toMatchObject({ value: 120, unit: "mmHg" });
    expect(sampleOf(parseOne("2a35", "01a0f06bf085f0"), "blood_pressure_systolic")).toMatchObject({ value: 16, unit: "kPa" });
  });

  it("weight in kg (0.005) or lb (0.01), height in m (0.001) or in (0.1)", () => {
    const si = parseOne("2a9d", "08e1393a01e406"); // 14817 × 0.005 kg, BMI 31.4, 1.764 m
    expect(sampleOf(si, "body_mass")).toMatchObject({ value: 74.085, unit: "kg" });
    expect(sampleOf(si, "height")).toMatchObject({ value: 1.764, unit: "m" });
    const imperial = parseOne("2a9d", "09543df500a802");
    expect(sampleOf(imperial, "body_mass")).toMatchObject({ value: 157, unit: "lb" });
    expect(sampleOf(imperial, "height")).toMatchObject({ value: 68, unit: "in" });
    expect(sampleOf(imperial, "body_mass_index")).toMatchObject({ value: 24.5, unit: "kg/m2" });
    expectWritable(si);
    expectWritable(imperial);
  });

  it("temperature in Celsius or Fahrenheit", () => {
    expect(sampleOf(parseOne("2a1c", "006d0100ff"), "body_temperature")).toMatchObject({ value: 36.5, unit: "degC" });
    const fahrenheit = parseOne("2a1c", "01da0300ff"); // 986 × 10^-1 °F
    expect(sampleOf(fahrenheit, "body_temperature")).toMatchObject({ value: 98.6, unit: "degF" });
    expectWritable(fahrenheit);
  });

  it("glucose in kg/L (sent as mg/dL) or mol/L (sent as mmol/L)", () => {
    // Base time 2025-05-31 08:00:00, 95 × 10^-5 kg/L.
    const kgPerL = parseOne("2a18", "020100e907051f0800005fb011");
    expect(sampleOf(kgPerL, "blood_glucose")).toMatchObject({ value: 95, unit: "mg/dL" });
    // 53 × 10^-4 mol/L = 5.3 mmol/L.
    const molPerL = parseOne("2a18", "060200e907051f08000035c011");
    expect(sampleOf(molPerL, "blood_glucose")).toMatchObject({ value: 5.3, unit: "mmol/L" });
    expectWritable(kgPerL);
    expectWritable(molPerL);
  });

  it("body composition masses in kg or lb", () => {
    // Flags 0x0460: muscle mass, fat free mass, weight (SI); body fat 22.5 %.
    const si = parseOne("2a9c", "6004e100a0286c39b036");
    expect(sampleOf(si, "body_fat_percentage")).toMatchObject({ value: 22.5, unit: "%" });
    expect(sampleOf(si, "muscle_mass")).toMatchObject({ value: 52, unit: "kg" });
    expect(sampleOf(si, "lean_body_mass")).toMatchObject({ value: 73.5, unit: "kg" });
    expect(sampleOf(si, "body_mass")).toMatchObject({ value: 70, unit: "kg" });
    const imperial = parseOne("2a9c", "0104e100543d");
    expect(sampleOf(imperial, "body_mass")).toMatchObject({ value: 157, unit: "lb" });
    expectWritable(si);
    expectWritable(imperial);
  });
});

describe("optional fields by flags", () => {
  it("body composition reads every optional field in order", () => {
    // Flags 0x0FFE: all but units and multiple packet; then each field.
    const hex =
      "fe0f" + // flags
      "e100" + // body fat 22.5 %
      "e9070601070000" + // 2025-06-01 07:00:00
      "02" + // user 2
      "2c1a" + // basal metabolism 6700 kJ
      "7401" + // muscle 37.2 %
      "a028" + // muscle mass 52 kg
      "6c39" + // fat free mass 73.5 kg
      "1027" + // soft lean mass 50 kg
      "401f" + // body water mass 40 kg
      "8813" + // impedance 500.0 Ω
      "b036" + // weight 70 kg
      "e406"; // height 1.764 m
    const m = decoded(decodeBodyCompositionMeasurement(bytes(hex)));
    expect(m).toMatchObject({
      unit: "kg",
      bodyFatPercentage: 22.5,
      userId: 2,
      basalMetabolismKj: 6700,
      musclePercentage: 37.2,
      muscleMass: 52,
      fatFreeMass: 73.5,
      softLeanMass: 50,
      bodyWaterMass: 40,
      impedanceOhm: 500,
      weight: 70,
      height: 1.764,
      multiplePacket: false,
    });
    const parsed = parseOne("2a9c", hex, "2025-06-01T12:00:00+02:00");
    expect(types(parsed)).toEqual(["body_fat_percentage", "body_mass", "body_water_mass", "height", "lean_body_mass", "muscle_mass"]);
    expect(sampleOf(parsed, "body_mass").start_date.toISOString()).toBe("2025-06-01T05:00:00.000Z");
    expect(sampleOf(parsed, "body_mass").metadata).toMatchObject({ user_index: 2, time_source: "device" });
    // Values without a catalog type stay out of metadata too.
    expect(JSON.stringify(parsed.quantitySamples.map((s) => s.metadata))).not.toMatch(/impedance|basal|soft_lean|muscle_percentage/);
    expect(isFailure(decodeBodyCompositionMeasurement(bytes(hex.slice(0, -4))))).toBe(true);
  });

  it("body fat 0xFFFF is an unsuccessful measurement", () => {
    const m = decoded(decodeBodyCompositionMeasurement(bytes("0004ffffb036")));
    expect(m.bodyFatPercentage).toBeNull();
    expect(types(parseOne("2a9c", "0004ffffb036"))).toEqual(["body_mass"]);
  });

  it("weight 0xFFFF is an unsuccessful measurement", () => {
    expect(decoded(decodeWeightMeasurement(bytes("00ffff"))).weight).toBeNull();
    expect(parseOne("2a9d", "00ffff").rejected).toHaveLength(1);
  });

  it("PLX continuous reads fast and slow pairs only with their flags", () => {
    const m = decoded(decodePlxContinuousMeasurement(bytes("026200610061006200")));
    expect(m).toMatchObject({ spo2: 98, pulseRate: 97, spo2Fast: null, spo2Slow: 97, pulseRateSlow: 98 });
    // Fast and slow restate the reading: one SpO2 and one pulse sample only.
    expect(types(parseOne("2a5f", "03620061006100620062006300"))).toEqual(["heart_rate", "oxygen_saturation"]);
  });

  it("glucose without a concentration carries nothing to store", () => {
    const parsed = parseOne("2a18", "080300e907051f0800000001");
    expect(parsed.quantitySamples).toEqual([]);
    expect(parsed.rejected[0]?.reason).toContain("Glucose Measurement (0x2A18): carries no value to store");
  });

  it("heart rate reads energy expended before the RR intervals", () => {
    const m = decoded(decodeHeartRateMeasurement(bytes("185032000004cc03")));
    expect(m).toEqual({ heartRate: 80, sensorContact: "not_supported", energyExpendedKj: 50, rrIntervals: [1024, 972] });
    expect(isFailure(decodeHeartRateMeasurement(bytes("1850320000040c")))).toBe(true); // an odd byte left
  });

  it("reserved flag bits reject the value", () => {
    for (const [characteristic, hex] of [
      ["2a37", "2050"],
      ["2a35", "20780050005d00"],
      ["2a9d", "10b036"],
      ["2a9c", "0020e100"],
      ["2a1c", "086d0100ff"],
      ["2a18", "200100e907051f080000"],
      ["2a5e", "2062006100"],
      ["2a5f", "4062006100"],
    ] as const) {
      const parsed = parseOne(characteristic, hex);
      expect(parsed.quantitySamples, characteristic).toEqual([]);
      expect(parsed.rejected[0]?.reason, characteristic).toMatch(/: flags set reserved bits/);
    }
  });

  it("a timestamp with a reserved field value rejects the value", () => {
    // Hours 24.
    expect(parseOne("2a9d", "02b036e9070601180000").rejected[0]?.reason).toBe("Weight Measurement (0x2A9D): timestamp holds a reserved value");
    // 31 June.
    expect(parseOne("2a9d", "02b036e907061f000000").rejected[0]?.reason).toBe("Weight Measurement (0x2A9D): timestamp is not a calendar date");
  });
});

describe("records", () => {
  it("heart rate: on body, sensor contact in metadata, RR intervals as a heartbeat series", () => {
    const parsed = parseOne("0x2A37", "1E5532002100", "2025-06-01T08:00:01+02:00", { device: "Polar H10 8A1B2C3D", device_id: "strap-1" });
    const sample = sampleOf(parsed, "heart_rate");
    expect(sample).toMatchObject({
      value: 85,
      unit: "count/min",
      source: null,
      device: "Polar H10 8A1B2C3D",
      on_body: true,
      timezone: "+02:00",
      locator: "line 1",
    });
    expect(sample.start_date.toISOString()).toBe("2025-06-01T06:00:01.000Z");
    expect(sample.metadata).toEqual({ gatt_characteristic: "0x2A37", time_source: "received_at", device_id: "strap-1", sensor_contact: "detected" });
    expect(parsed.heartbeatSeries).toHaveLength(1);
    const series = parsed.heartbeatSeries[0];
    expect(series?.rr_intervals).toEqual([{ interval_ms: (33 * 1000) / 1024 }]);
    expect(series?.on_body).toBe(true);
    expect(series?.device).toBe("Polar H10 8A1B2C3D");
    // The last beat is at the arrival time.
    expect(series?.start_date.getTime()).toBe(Math.round(Date.parse("2025-06-01T06:00:01Z") - (33 * 1000) / 1024));
  });

  it("heart rate of 0 is no reading, but its RR intervals count", () => {
    const parsed = parseOne("2a37", "10000004");
    expect(parsed.quantitySamples).toEqual([]);
    expect(parsed.heartbeatSeries).toHaveLength(1);
    expect(parsed.rejected).toEqual([]);
  });

  it("RR intervals under 2 ms are dropped with a rejection, the heart rate kept", () => {
    const parsed = parseOne("2a37", "10480100");
    expect(types(parsed)).toEqual(["heart_rate"]);
    expect(parsed.heartbeatSeries).toEqual([]);
    expect(parsed.rejected).toEqual([
      {
        recordKind: "heartbeat_series",
        locator: "line 1",
        reason: "Heart Rate Measurement (0x2A37): an RR interval is under 2 ms; the line's RR intervals are left out",
      },
    ]);
  });

  it("consecutive strap lines join one series; a pause or another device starts a new one", () => {
    const start = Date.parse("2025-06-01T06:00:00Z");
    const at = (s: number) => new Date(start + s * 1000).toISOString();
    // 1024/1024 s = 1000 ms per beat, one beat per notification.
    const lines = [
      line("2a37", "103c0004", at(1), { device_id: "a" }),
      line("2a37", "103c0004", at(2), { device_id: "a" }),
      line("2a37", "103c0004", at(3), { device_id: "b" }),
      line("2a37", "103c0004", at(3), { device_id: "a" }),
      line("2a37", "103c0004", at(20), { device_id: "a" }), // a pause of 17 s
    ];
    const parsed = parseBluetoothUpload(lines.join("\n"));
    expect(parsed.quantitySamples).toHaveLength(5);
    const series = parsed.heartbeatSeries.map((s) => ({ locator: s.locator, start: s.start_date.toISOString(), beats: (s.rr_intervals?.length ?? 0) + 1 }));
    expect(series).toEqual([
      { locator: "lines 1-4", start: at(0), beats: 4 },
      { locator: "line 5", start: at(19), beats: 2 },
      { locator: "line 3", start: at(2), beats: 2 },
    ]);
  });

  it("a line whose RR intervals are refused ends the series", () => {
    const start = Date.parse("2025-06-01T06:00:00Z");
    const at = (s: number) => new Date(start + s * 1000).toISOString();
    const parsed = parseBluetoothUpload([line("2a37", "103c0004", at(1)), line("2a37", "103c0100", at(2)), line("2a37", "103c0004", at(3))].join("\n"));
    expect(parsed.heartbeatSeries.map((s) => s.locator)).toEqual(["line 1", "line 3"]);
    expect(parsed.quantitySamples).toHaveLength(3);
    // So does a line without skin contact (flags 0x14: contact supported, not detected).
    const noContact = parseBluetoothUpload([line("2a37", "103c0004", at(1)), line("2a37", "143c0004", at(2)), line("2a37", "103c0004", at(3))].join("\n"));
    expect(noContact.heartbeatSeries.map((s) => s.locator)).toEqual(["line 1", "line 3"]);
    expect(noContact.rejected.map((r) => r.locator)).toEqual(["line 2"]);
  });

  it("missed beats (beats falling behind the arrival times) start a new series", () => {
    const start = Date.parse("2025-06-01T06:00:00Z");
    const at = (s: number) => new Date(start + s * 1000).toISOString();
    const parsed = parseBluetoothUpload([line("2a37", "103c0004", at(1)), line("2a37", "103c0004", at(5.5))].join("\n"));
    expect(parsed.heartbeatSeries).toHaveLength(2);
  });

  it("blood pressure: the cuff's unit, pulse as heart rate, status in metadata, no MAP", () => {
    const vector = "15BDF00B009FF03C001200"; // kPa, pulse, status: cuff too loose, pulse below range
    const parsed = parseOne("2a35", vector);
    expect(types(parsed)).toEqual(["blood_pressure_diastolic", "blood_pressure_systolic", "heart_rate"]);
    expect(sampleOf(parsed, "blood_pressure_systolic")).toMatchObject({ value: 18.9, unit: "kPa", on_body: false });
    expect(sampleOf(parsed, "heart_rate")).toMatchObject({ value: 60, on_body: false });
    expect(sampleOf(parsed, "blood_pressure_diastolic").metadata).toEqual({
      gatt_characteristic: "0x2A35",
      time_source: "received_at",
      body_movement_detected: false,
      cuff_too_loose: true,
      irregular_pulse_detected: false,
      pulse_rate_range: "below_lower_limit",
      improper_measurement_position: false,
    });
    expectWritable(parsed);
    // The samples of one measurement share its external id (identity is per type).
    expect(new Set(parsed.quantitySamples.map((s) => s.external_id)).size).toBe(1);
  });

  it("a timestamp of unknown year falls back to the arrival time", () => {
    const parsed = parseOne("2a35", "1E8A00580078000000041114293B3C00012700");
    const sample = sampleOf(parsed, "blood_pressure_systolic");
    expect(sample.start_date.toISOString()).toBe(RECEIVED_AT);
    expect(sample.metadata).toMatchObject({ time_source: "received_at", device_time_ignored: "incomplete", user_index: 1 });
  });

  it("the device time is read in the offset of received_at", () => {
    const parsed = parseOne("2a1c", "06B00E00FEDC070C050B321B04", "2025-06-01T12:00:00-05:00");
    const sample = sampleOf(parsed, "body_temperature");
    expect(sample.start_date.toISOString()).toBe("2012-12-05T16:50:27.000Z");
    expect(sample.timezone).toBe("-05:00");
    expect(sample.on_body).toBe(false);
    expect(sample.metadata).toMatchObject({ temperature_type: "finger", time_source: "device", received_at: "2025-06-01T17:00:00.000Z" });
  });

  it("an unset device clock is not used", () => {
    // Weight with timestamp 2000-01-01 00:00:00: the scale's clock was never set.
    const unset = sampleOf(parseOne("2a9d", "02b036d0070101000000"), "body_mass");
    expect(unset.start_date.toISOString()).toBe(RECEIVED_AT);
    expect(unset.metadata).toMatchObject({ device_time_ignored: "implausible" });
    // A timestamp days after it arrived.
    const ahead = sampleOf(parseOne("2a9d", "02b036e907060a000000"), "body_mass");
    expect(ahead.metadata).toMatchObject({ device_time_ignored: "implausible" });
    // PLX spot-check with the "device clock not set" flag.
    const plx = sampleOf(parseOne("2a5e", "11acf3bef5e8070b1d170839"), "oxygen_saturation");
    expect(plx.start_date.toISOString()).toBe(RECEIVED_AT);
    expect(plx.metadata).toMatchObject({ device_time_ignored: "clock_not_set" });
  });

  it("PLX spot-check: SpO2, pulse and perfusion index, on body, at the device time", () => {
    const parsed = parseOne("2a5e", "0FACF3BEF5E8070B1D170839204022000066E3", RECEIVED_AT, { device: "Nonin 3230" });
    expect(types(parsed)).toEqual(["heart_rate", "oxygen_saturation", "peripheral_perfusion_index"]);
    const spo2 = sampleOf(parsed, "oxygen_saturation");
    expect(spo2).toMatchObject({ value: 94, unit: "%", on_body: true, device: "Nonin 3230" });
    expect(spo2.start_date.toISOString()).toBe("2024-11-29T23:08:57.000Z");
    expect(spo2.metadata).toMatchObject({
      measurement_status: ["measurement_ongoing", "questionable_measurement_detected"],
      device_and_sensor_status: ["equipment_malfunction_detected", "low_perfusion_detected"],
    });
    expect(sampleOf(parsed, "peripheral_perfusion_index").value).toBe(8.7);
  });

  it("PLX data marked for demonstration, testing, unavailable or invalid is refused", () => {
    for (const status of ["0004", "0008", "0020", "0080"]) {
      const parsed = parseOne("2a5f", `0462006100${status}`);
      expect(parsed.quantitySamples).toEqual([]);
      expect(parsed.rejected[0]?.reason).toMatch(/^PLX Continuous Measurement \(0x2A5F\): measurement status marks it as not a measurement of the user/);
    }
  });

  it("a glucose control solution test is refused", () => {
    const parsed = parseOne("2a18", "020100e907051f0800005fb01a");
    expect(parsed.quantitySamples).toEqual([]);
    expect(parsed.rejected[0]?.reason).toBe("Glucose Measurement (0x2A18): a control solution test, not a measurement of the user");
  });

  it("external ids: a re-sent line is the same record; a value with its own timestamp identifies itself", () => {
    const id = (characteristic: string, value: string, receivedAt: string) => parseOne(characteristic, value, receivedAt).quantitySamples[0]?.external_id;
    expect(id("2a37", "0048", RECEIVED_AT)).toBe(id("0x2A37", "0048", RECEIVED_AT));
    expect(id("2a37", "0048", RECEIVED_AT)).not.toBe(id("2a37", "0048", "2025-06-01T12:00:01Z"));
    expect(id("2a37", "0048", RECEIVED_AT)).not.toBe(id("2a37", "0049", RECEIVED_AT));
    const weighed = "02b036e7070c190e1e2d";
    expect(id("2a9d", weighed, RECEIVED_AT)).toBe(id("2a9d", weighed, "2025-07-01T09:00:00+02:00"));
    expect(id("2a9d", weighed, RECEIVED_AT)).toMatch(/^ble-[0-9a-f]{32}$/);
  });

  it("a line repeated in one upload counts once", () => {
    const parsed = parseBluetoothUpload([line("2a37", "103c0004"), line("2a37", "103C0004")].join("\n"));
    expect(parsed.quantitySamples).toHaveLength(1);
    expect(parsed.heartbeatSeries[0]?.rr_intervals).toHaveLength(1);
  });
});

describe("line format", () => {
  it("accepts the 16-bit UUID in any case, with 0x, and in the 128-bit base form", () => {
    for (const characteristic of ["2a37", "2A37", "0x2a37", "0X2A37", "00002a37-0000-1000-8000-00805f9b34fb", "00002A37-0000-1000-8000-00805F9B34FB"]) {
      expect(types(parseOne(characteristic, "0048")), characteristic).toEqual(["heart_rate"]);
    }
  });

  it("parseBluetoothLines keeps the numbers it is given", () => {
    const parsed = parseBluetoothLines([
      { line: line("2a37", "0048"), number: 3 },
      { line: "not json", number: 7 },
    ]);
    expect(parsed.quantitySamples[0]?.locator).toBe("line 3");
    expect(parsed.rejected).toEqual([{ recordKind: "bluetooth_measurement", locator: "line 7", reason: "line is not valid JSON" }]);
  });

  it("takes a byte order mark before the first line", () => {
    const text = `\uFEFF${line("2a37", "0048")}`;
    expect(checkBluetoothLine(text, 1)).toBeNull();
    expect(types(parseBluetoothUpload(text))).toEqual(["heart_rate"]);
  });

  it("rejects unsupported characteristics by name, and numbers lines from 1 skipping blank ones", () => {
    const text = ["", line("2a19", "64"), line("6e400003-b5a3-f393-e0a9-e50e24dcca9e", "00"), "  ", line("2a36", "00780050005d00")].join("\r\n");
    expect(parseBluetoothUpload(text).rejected).toEqual([
      { recordKind: "bluetooth_measurement", locator: "line 2", reason: "characteristic 0x2A19 is not supported" },
      { recordKind: "bluetooth_measurement", locator: "line 3", reason: "characteristic 6e400003-b5a3-f393-e0a9-e50e24dcca9e is not supported" },
      { recordKind: "bluetooth_measurement", locator: "line 5", reason: "characteristic 0x2A36 is not supported" },
    ]);
  });

  it("checkBluetoothLine: null for a structurally valid or blank line, else a reason naming the line", () => {
    expect(checkBluetoothLine(line("2a37", "0048"), 1)).toBeNull();
    expect(checkBluetoothLine(line("2a19", "64"), 1)).toBeNull(); // unsupported is for the parser
    expect(checkBluetoothLine(line("2a37", "0048", RECEIVED_AT, { device: "Strap", device_id: null, extra: 1 }), 1)).toBeNull();
    expect(checkBluetoothLine("", 9)).toBeNull();
    const cases: [string, string][] = [
      ['{"characteristic": "2a37",', "line 7: line is not valid JSON"],
      ["[1, 2]", "line 7: line is not a JSON object"],
      ['"2a37"', "line 7: line is not a JSON object"],
      [JSON.stringify({ value: "0048", received_at: RECEIVED_AT }), "line 7: characteristic is missing or not a string"],
      [line("heart rate", "0048"), "line 7: characteristic is not a 16-bit UUID in hex or a 128-bit UUID"],
      [line("2a37", "048"), "line 7: value is not hex digits of whole bytes"],
      [line("2a37", "00 48"), "line 7: value is not hex digits of whole bytes"],
      [line("2a37", "0x0048"), "line 7: value is not hex digits of whole bytes"],
      [line("2a37", ""), "line 7: value is empty"],
      [line("2a37", "00".repeat(513)), "line 7: value is longer than 512 bytes"],
      [JSON.stringify({ characteristic: "2a37", value: 72, received_at: RECEIVED_AT }), "line 7: value is missing or not a string"],
      [JSON.stringify({ characteristic: "2a37", value: "0048" }), "line 7: received_at is missing or not a string"],
      [line("2a37", "0048", "2025-06-01T12:00:00"), "line 7: received_at is not an RFC 3339 time with an offset"],
      [line("2a37", "0048", "2025-02-30T12:00:00Z"), "line 7: received_at is not an RFC 3339 time with an offset"],
      [line("2a37", "0048", "1717243200"), "line 7: received_at is not an RFC 3339 time with an offset"],
      [line("2a37", "0048", RECEIVED_AT, { device: 7 }), "line 7: device is not a string of at most 256 characters"],
      [line("2a37", "0048", RECEIVED_AT, { device_id: "x".repeat(257) }), "line 7: device_id is not a string of at most 256 characters"],
    ];
    for (const [text, reason] of cases) {
      expect(checkBluetoothLine(text, 7), text).toBe(reason);
      // The parser gives the same reason as a rejected line.
      expect(parseBluetoothUpload(text).rejected[0]?.reason, text).toBe(reason.replace("line 7: ", ""));
    }
  });

  it("reads received_at with any RFC 3339 offset and fraction", () => {
    const start = (receivedAt: string) => sampleOf(parseOne("2a37", "0048", receivedAt), "heart_rate");
    expect(start("2025-06-01T12:00:00.123456Z").start_date.toISOString()).toBe("2025-06-01T12:00:00.123Z");
    expect(start("2025-06-01t17:30:00.5+05:30").start_date.toISOString()).toBe("2025-06-01T12:00:00.500Z");
    expect(start("2025-06-01T17:30:00+05:30").timezone).toBe("+05:30");
    expect(start("2025-06-01T12:00:00-00:00").timezone).toBeNull();
    expect(start("2025-06-01T12:00:00Z").timezone).toBeNull();
  });
});

// Characteristic names and UUIDs in a line, for the property tests.
const CHARACTERISTICS = ["2a37", "2a35", "2a9d", "2a9c", "2a1c", "2a18", "2a5e", "2a5f"];
const hexOf = (value: Uint8Array) => Buffer.from(value).toString("hex");

function expectSane(parsed: ParsedRecords): void {
  for (const sample of parsed.quantitySamples) {
    expect(Number.isFinite(sample.value)).toBe(true);
    expect(Number.isNaN(sample.start_date.getTime())).toBe(false);
  }
  for (const series of parsed.heartbeatSeries) {
    expect(Number.isNaN(series.start_date.getTime())).toBe(false);
    for (const rr of series.rr_intervals ?? []) expect(Number.isFinite(rr.interval_ms) && rr.interval_ms > 0).toBe(true);
  }
}

describe("properties", () => {
  propTest.prop([fc.integer({ min: 0, max: 0xffff })])("SFLOAT is null or a finite number", (raw) => {
    const value = sfloat(raw);
    expect(value === null || Number.isFinite(value)).toBe(true);
    expect(value === null).toBe(sfloatSpecial(raw) !== null);
  });

  propTest.prop([fc.integer({ min: 0, max: 0xffffffff })])("FLOAT is null or a finite number", (raw) => {
    const value = float32(raw);
    expect(value === null || Number.isFinite(value)).toBe(true);
    expect(value === null).toBe(float32Special(raw) !== null);
  });

  propTest.prop([fc.constantFrom(...CHARACTERISTICS), fc.uint8Array({ minLength: 1, maxLength: 40 }), fc.date({ min: new Date("2015-01-01"), max: new Date("2035-01-01"), noInvalidDate: true })], {
    numRuns: 2000,
  })("random values of every characteristic never throw nor give a non-finite value", (characteristic, value, receivedAt) => {
    const hex = hexOf(value);
    const parsed = parseOne(characteristic, hex, receivedAt.toISOString());
    expectSane(parsed);
    // A line gives records, or one rejection (two when its RR part alone is refused).
    if (parsed.quantitySamples.length + parsed.heartbeatSeries.length === 0) expect(parsed.rejected).toHaveLength(1);
    for (const rejection of parsed.rejected) {
      if (hex.length >= 6) expect(rejection.reason.toLowerCase()).not.toContain(hex);
    }
  });

  propTest.prop([
    fc.array(
      fc.oneof(
        fc.string(),
        fc.json(),
        fc.record({
          characteristic: fc.oneof(fc.constantFrom(...CHARACTERISTICS, "0x2A37", "2a19"), fc.string()),
          value: fc.oneof(fc.uint8Array({ maxLength: 30 }).map(hexOf), fc.string(), fc.integer()),
          received_at: fc.oneof(fc.date({ noInvalidDate: true, min: new Date("0001-01-01"), max: new Date("9999-12-31") }).map((d) => d.toISOString()), fc.string()),
          device: fc.option(fc.string()),
          device_id: fc.option(fc.string()),
        }).map((fields) => JSON.stringify(fields)),
      ),
      { maxLength: 20 },
    ),
  ], { numRuns: 500 })("random lines never throw, and check and parse agree on malformed lines", (lines) => {
    const text = lines.join("\n");
    const parsed = parseBluetoothUpload(text);
    expectSane(parsed);
    text.split("\n").forEach((raw, index) => {
      const problem = checkBluetoothLine(raw.replace(/\r$/, ""), index + 1);
      if (problem !== null) expect(parsed.rejected.map((r) => `${r.locator}: ${r.reason}`)).toContain(problem);
    });
  });
});
