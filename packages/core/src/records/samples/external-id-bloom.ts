import { createHash } from "node:crypto";

// Each chunk keeps a Bloom filter of its samples' provider ids, so that a sample can be found
// by its id wherever it lies in time by reading the user's filters (4 bytes a sample) rather
// than every id (about 40) or an index entry per id (a GIN index took 56 to 79 bytes a sample).
// A filter says "maybe" for about 2 ids in a million it does not hold; the ids of a chunk it
// points to are then compared exactly. An id's bits come from its MD5 (the upgrade migration
// builds the same filters in SQL): two 32-bit halves h1 and h2, and bits (h1 + i * h2) mod m
// for i below PROBES, m the filter's size in bits; bit n is bit n mod 8 (from the lowest) of
// byte n / 8, as PostgreSQL's get_bit counts.

const BITS_PER_ID = 32;
const PROBES = 10;

const hashesOf = (id: string): [number, number] => {
  const digest = createHash("md5").update(id).digest();
  return [digest.readUInt32BE(0), digest.readUInt32BE(4)];
};

/** The filter of a chunk's provider ids (nulls skipped), as PostgreSQL's hex bytea literal; null when it has none. */
export function externalIdBloom(externalIds: ReadonlyArray<string | null>): string | null {
  let count = 0;
  for (const id of externalIds) if (id !== null) count++;
  if (count === 0) return null;
  const bits = Math.ceil((count * BITS_PER_ID) / 64) * 64;
  const filter = Buffer.alloc(bits / 8);
  for (const id of externalIds) {
    if (id === null) continue;
    const [h1, h2] = hashesOf(id);
    for (let i = 0; i < PROBES; i++) {
      const bit = (h1 + i * h2) % bits;
      filter[bit >> 3]! |= 1 << (bit & 7);
    }
  }
  return `\\x${filter.toString("hex")}`;
}

/** Tests filters for a set of ids: `mayHold(filter)` is false only when the filter holds none of them. */
export function bloomTester(externalIds: readonly string[]): (filter: Uint8Array) => boolean {
  const wanted = externalIds.map(hashesOf);
  return (filter) => {
    const bits = filter.length * 8;
    return wanted.some(([h1, h2]) => {
      for (let i = 0; i < PROBES; i++) {
        const bit = (h1 + i * h2) % bits;
        if ((filter[bit >> 3]! & (1 << (bit & 7))) === 0) return false;
      }
      return true;
    });
  };
}
