/**
 * What bounds PUT /__mock/state before any store holds the state it was sent, with every cost bounded by what the
 * mock already holds (issue 12, findings 1 and 5): the body's size and depth. The generic engine's admin
 * (admin/state.ts) checks the state itself against the document and the stated rules.
 */

/** An exported state nests three levels (`{"pets":[{…}]}`); open records may nest more, but not this much. */
export const IMPORT_MAX_DEPTH = 64;
/** The smallest import limit: about 90,000 pets with their inventory, whatever the mock holds now. */
export const IMPORT_FLOOR_BYTES = 8 * 1024 * 1024;
/** An exported record is 30 to 90 bytes of JSON (a pet about 60, its inventory entry 30): room for longer names and extra fields. */
const BYTES_PER_RECORD = 256;

/**
 * How large an import body may be for a mock holding `records` records (the state an export gives back), never
 * less than the floor. A fixed 64 MiB let one request of `{"pets":[0,0,…]}` take the mock past 4 GB.
 */
export function importLimitFor(records: number): number {
  return Math.max(IMPORT_FLOOR_BYTES, records * BYTES_PER_RECORD);
}
