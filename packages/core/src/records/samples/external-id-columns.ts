// A chunk keeps its samples' provider ids in two arrays: ids shaped as UUIDs in one letter
// case go into `external_uuids` (16 bytes each instead of 37 as text; HealthKit's ids are
// uppercase UUIDs and were half of a stored sample's bytes), every other id into
// `external_ids`. The case of the chunk's UUIDs is one flag (`external_uuids_lowercase`): the
// case most of its UUIDs have; a UUID in the other case stays text, so every id reads back as
// it was sent. Readers in SQL join the two the same way (quantity-sample-repository.ts and the
// quantity_samples view).

const UPPER_UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;
const LOWER_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface ExternalIdColumns {
  /** Ids that are not UUIDs in the chunk's case, null elsewhere; null when there is none. */
  texts: Array<string | null> | null;
  /** UUIDs in the chunk's case, lowercase as PostgreSQL prints them, null elsewhere; null when there is none. */
  uuids: Array<string | null> | null;
  lowercase: boolean;
}

const nullWhenEmpty = (items: Array<string | null>) => (items.some((item) => item !== null) ? items : null);

/** Splits a chunk's provider ids (one per slot) into its two columns. */
export function toExternalIdColumns(ids: ReadonlyArray<string | null>): ExternalIdColumns {
  let upper = 0;
  let lower = 0;
  for (const id of ids) {
    if (id === null || id.length !== 36) continue;
    if (UPPER_UUID.test(id)) upper++;
    else if (LOWER_UUID.test(id)) lower++;
  }
  const lowercase = lower > upper;
  const shape = lowercase ? LOWER_UUID : UPPER_UUID;
  const texts: Array<string | null> = [];
  const uuids: Array<string | null> = [];
  for (const id of ids) {
    const isUuid = id !== null && id.length === 36 && shape.test(id);
    texts.push(isUuid ? null : id);
    uuids.push(isUuid ? id.toLowerCase() : null);
  }
  return { texts: nullWhenEmpty(texts), uuids: upper + lower > 0 ? nullWhenEmpty(uuids) : null, lowercase };
}

/** A chunk's provider ids, one per slot, as they were sent. */
export function fromExternalIdColumns(columns: ExternalIdColumns, slots: number): Array<string | null> {
  const ids = new Array<string | null>(slots);
  for (let i = 0; i < slots; i++) {
    const uuid = columns.uuids?.[i] ?? null;
    ids[i] = uuid === null ? (columns.texts?.[i] ?? null) : columns.lowercase ? uuid : uuid.toUpperCase();
  }
  return ids;
}
