// The two medical number formats of IEEE 11073-20601 (FLOAT-Type and SFLOAT-Type), as the
// Bluetooth health characteristics carry them (GATT Specification Supplement, "medfloat16"
// and "medfloat32"): value = mantissa × 10^exponent, both two's complement, little-endian
// on the wire. Five bit patterns are special values, not numbers: the field they fill is
// absent, never a number.

export type Ieee11073Special = "nan" | "nres" | "+inf" | "-inf" | "reserved";

// The special values are whole bit patterns with exponent 0 (IEEE 11073-20601, FLOAT-Type
// and SFLOAT-Type): mantissa +(2^(n-1) - 1) is NaN, -(2^(n-1)) NRes (not at this resolution),
// +(2^(n-1) - 2) +INF, -(2^(n-1) - 2) -INF and -(2^(n-1) - 1) reserved.
const SFLOAT_SPECIALS: ReadonlyMap<number, Ieee11073Special> = new Map([
  [0x07ff, "nan"],
  [0x0800, "nres"],
  [0x07fe, "+inf"],
  [0x0802, "-inf"],
  [0x0801, "reserved"],
]);

const FLOAT_SPECIALS: ReadonlyMap<number, Ieee11073Special> = new Map([
  [0x007fffff, "nan"],
  [0x00800000, "nres"],
  [0x007ffffe, "+inf"],
  [0x00800002, "-inf"],
  [0x00800001, "reserved"],
]);

/** Which special value a 16-bit SFLOAT is, or null when it is a number. */
export function sfloatSpecial(raw: number): Ieee11073Special | null {
  return SFLOAT_SPECIALS.get(raw & 0xffff) ?? null;
}

/** A 16-bit SFLOAT (4-bit exponent, 12-bit mantissa) as a number; null for a special value. */
export function sfloat(raw: number): number | null {
  const bits = raw & 0xffff;
  if (SFLOAT_SPECIALS.has(bits)) return null;
  return decimal(signed(bits & 0x0fff, 12), signed(bits >>> 12, 4));
}

/** Which special value a 32-bit FLOAT is, or null when it is a number. */
export function float32Special(raw: number): Ieee11073Special | null {
  return FLOAT_SPECIALS.get(raw >>> 0) ?? null;
}

/** A 32-bit FLOAT (8-bit exponent, 24-bit mantissa) as a number; null for a special value. */
export function float32(raw: number): number | null {
  const bits = raw >>> 0;
  if (FLOAT_SPECIALS.has(bits)) return null;
  return decimal(signed(bits & 0x00ffffff, 24), signed(bits >>> 24, 8));
}

/** A two's complement value of `width` bits. */
function signed(value: number, width: number): number {
  const sign = 2 ** (width - 1);
  return value >= sign ? value - 2 * sign : value;
}

// Dividing by a power of ten for a negative exponent gives the double nearest the decimal
// (189 / 10 is 18.9; 189 * 0.1 is 18.900000000000002). Every result is finite: at most
// 8388607 × 10^127.
function decimal(mantissa: number, exponent: number): number {
  return exponent >= 0 ? mantissa * 10 ** exponent : mantissa / 10 ** -exponent;
}
