/**
 * The data of a foreign document's resources, with no HTTP: per resource and per parent scope (`/a/1/things` and
 * `/a/2/things` are two lists), records by id text in creation order, plus one id sequence per resource.
 *
 * Like the Pet Store's stores (registry.ts), every store is a copy-on-write fork of one initial state that is never
 * written: a session keeps what it changes over the shared lists (overlay-list.ts), so `X-Mock-Session` costs next to
 * nothing until it writes, and a write costs its record, not a copy of its collection.
 * Records are frozen all the way down (`immutableJson`) and replaced on change, never edited, so forks and answers
 * share them safely, and the text of each is written once and kept (mock/engine/json.ts).
 */
import type { SessionDropReason } from '../conveniences/session.js';
import type { Meter } from '../conveniences/registry.js';
import { encodeJson, immutableJson } from './json.js';
import { Recency } from '../conveniences/recency.js';
import { DEFAULT_MAX_SESSION_MEMORY, DEFAULT_MAX_SESSIONS, mebibytes } from '../conveniences/registry.js';
import { RECORD_BYTES } from '../conveniences/registry.js';
import { OverlayList, TailList, type ListView, type SharedList, type WritableList } from './overlay-list.js';
import type { JsonObject } from './schemas.js';

export type StoredRecord = Readonly<JsonObject>;

/** A whole state as JSON: resource key (its collection path) → scope (`''`, or the parent ids `1/7`) → records. */
export type GenericState = Readonly<Record<string, Readonly<Record<string, readonly StoredRecord[]>>>>;

export interface GenericStore {
  records(resource: string, scope: string): Iterable<StoredRecord>;
  count(resource: string, scope: string): number;
  get(resource: string, scope: string, id: string): StoredRecord | undefined;
  set(resource: string, scope: string, id: string, record: StoredRecord): void;
  remove(resource: string, scope: string, id: string): boolean;
  /** The next number of a resource's integer sequence: past every integer id it holds. */
  nextNumber(resource: string): number;
  /** The last number of a resource's integer sequence, taken or not (0 before any): what `nextNumber` passes. */
  sequence(resource: string): number;
  /** A number that changes whenever any record of this store is set or removed: what an answer kept from the store is good for. */
  revision(): number;
  /** Every scope a resource has records in (`''` for a top-level resource; the parent ids of a nested one). */
  scopes(resource: string): Iterable<string>;
  /**
   * The ids of the records of `resource` in `scope` whose `index.keyOf` is `key`, in no promised order: what a stated
   * rule looks up (a uniqueness, what still names a record) without reading the whole collection. Each index is built
   * on its first lookup in this store and kept on every write after it, undone ones included.
   */
  lookup(resource: string, scope: string, index: RecordIndex, key: string): Iterable<string>;
  /**
   * Runs `work`, and undoes every write it made when `keep` says no (a rule refused it): a refused request changes
   * nothing, however far its effects had gone. Inside another, it is part of that one.
   */
  atomically<T>(work: () => T, keep: (result: T) => boolean): T;
  snapshot(): GenericState;
  /**
   * The whole state, as `snapshot` gives it, with this store's lists handed over with it: a registry made from that
   * state (createGenericRegistry, a load) takes them as they are rather than building them again from its records (a
   * million of them at start-up, after a behaviour's `load` hook). This store is not to be written after.
   */
  handOver(): GenericState;
}

/** The lists of states a store handed over (GenericStore.handOver), by the state. */
const handedOver = new WeakMap<GenericState, { readonly lists: Lists; readonly sequences: ReadonlyMap<string, number> }>();

/** How a record is indexed: the text it is found by, or undefined where it is not (a field left out, null). */
export interface RecordIndex {
  keyOf(record: StoredRecord): string | undefined;
}

/** An index of one resource's records in one scope: key text → the id, or the ids, whose record has it. */
type Postings = Map<string, string | Set<string>>;

function post(postings: Postings, key: string, id: string): void {
  const held = postings.get(key);
  if (held === undefined) postings.set(key, id);
  else if (typeof held === 'string') {
    if (held !== id) postings.set(key, new Set([held, id]));
  } else held.add(id);
}

function unpost(postings: Postings, key: string, id: string): void {
  const held = postings.get(key);
  if (held === undefined) return;
  if (typeof held === 'string') {
    if (held === id) postings.delete(key);
  } else {
    held.delete(id);
    if (held.size === 1) postings.set(key, held.values().next().value!);
  }
}

const NO_IDS: readonly string[] = [];

/** The values a transaction's log notes per write (fork's noteUndo): resource, scope, id, previous record, sequence. */
const UNDO_SLOTS = 5;
/** The most values a store's undo list keeps room for between transactions (a few hundred writes). */
const UNDO_KEPT = 1024;

/**
 * Resource → scope → id → record. By resource, then scope, rather than by one joined key: a read then builds no
 * string to find its list (the resource key and a top-level scope are the same strings every time).
 */
export type Lists = Map<string, Map<string, SharedList>>;

const EMPTY: SharedList = new Map<ListKey, StoredRecord>();

/**
 * An id as a list holds it: a number where the id is the text of one (`42`, as `String(42)` writes it), else the text.
 * A map finds a number by its value, and a text by its characters, which it reads from the key it holds: in a list of
 * a hundred thousand records each lookup by text missed the cache on the held keys, 0.1-0.4 µs where a number takes
 * 0.03-0.07 µs, and a create looks a list up several times (issue 34, point 1). One key for one id and back
 * (`idOfKey`): a text that is not a number's own writing (`007`, `-0`, `1e3`, negative ids) stays text.
 */
export type ListKey = string | number;

/** Up to 15 digits: every such number is a safe integer, written back by `String` as it came. */
const MAX_KEY_DIGITS = 15;

export function keyOf(id: string): ListKey {
  const length = id.length;
  if (length === 0 || length > MAX_KEY_DIGITS) return id;
  const first = id.charCodeAt(0);
  // '1' to '9': no leading zero; '0' alone is zero.
  if (first < 49 || first > 57) return id === '0' ? 0 : id;
  for (let i = 1; i < length; i += 1) {
    const code = id.charCodeAt(i);
    if (code < 48 || code > 57) return id;
  }
  return Number(id);
}

function idOfKey(key: ListKey): string {
  return typeof key === 'number' ? String(key) : key;
}

/**
 * Builds the never-written template from a state; `idOf` reads a record's id text. A resource's sequence starts past
 * its highest integer id, and past its `floors` entry (numbers issued before, or named by other records: an import).
 */
function buildLists(state: GenericState, idOf: (resource: string, record: StoredRecord, index: number) => string, floors?: ReadonlyMap<string, number>): { lists: Lists; sequences: Map<string, number> } {
  const handed = floors === undefined ? handedOver.get(state) : undefined;
  if (handed) return { lists: handed.lists, sequences: new Map(handed.sequences) };
  const lists: Lists = new Map();
  const sequences = new Map<string, number>();
  for (const [resource, scopes] of Object.entries(state)) {
    let highest = 0;
    for (const [scope, records] of Object.entries(scopes)) {
      const list = new Map<ListKey, StoredRecord>();
      records.forEach((record, index) => {
        const id = idOf(resource, record, index);
        list.set(keyOf(id), immutableJson(record));
        const numeric = Number(id);
        if (Number.isSafeInteger(numeric) && numeric > highest) highest = numeric;
      });
      let scopes = lists.get(resource);
      if (!scopes) lists.set(resource, (scopes = new Map()));
      scopes.set(scope, list);
    }
    sequences.set(resource, highest);
  }
  for (const [resource, floor] of floors ?? []) if (floor > (sequences.get(resource) ?? 0)) sequences.set(resource, floor);
  return { lists, sequences };
}

/**
 * `state` with its lists already built, as buildLists builds them from it (by the same ids: the same keys, records and
 * order), and each resource's highest integer id: the registry made from it takes them rather than building them again.
 * initial.ts builds them with the records, so a million records at start-up are put in one map, not in a set of the
 * ids taken and then in a map. The lists are not to be written after.
 */
export function withBuiltLists(state: GenericState, lists: Lists, highest: ReadonlyMap<string, number>): GenericState {
  handedOver.set(state, { lists, sequences: highest });
  return state;
}

/** What a list's entry costs: a Map entry's key, value and hash slots. */
const ENTRY_BYTES = 32;
/** What a store's own list costs before its entries: its maps (overlay-list.ts). */
const LIST_BYTES = 512;
/** What a session costs before it writes anything: its maps and closures. */
const SESSION_BYTES = 4 * 1024;

/**
 * What a written record costs a session: the frozen object and the JSON text kept beside it (mock/engine/json.ts), each
 * about as large as the text, plus its slots. The text is the one the answer is written from, so measuring it
 * costs nothing a read would not pay anyway.
 */
function recordBytes(record: StoredRecord): number {
  return 2 * encodeJson(record).length + RECORD_BYTES;
}

/** `origin`: the state `template` was built from, if its lists are that state's (buildLists with no floors). */
function fork(template: { lists: Lists; sequences: Map<string, number> }, meter?: Meter, origin?: GenericState): GenericStore {
  const own = new Map<string, Map<string, WritableList>>();
  const sequences = new Map(template.sequences);
  let revision = 0;
  /**
   * While atomically() runs (`undoing`): how to undo each write, newest last, UNDO_SLOTS values a write (undoWrites),
   * the first `undoLength` values of one flat list that every transaction of this store uses again, rather than a
   * closure a write and a list a transaction (issue 34, point 1). Emptied after each, so it holds no record alive, and
   * replaced after one that wrote more than UNDO_KEPT values (a cascade of many deletes), so its room goes too.
   */
  let undo: unknown[] = [];
  let undoLength = 0;
  let undoing = false;
  const read = (resource: string, scope: string): ListView => own.get(resource)?.get(scope) ?? template.lists.get(resource)?.get(scope) ?? EMPTY;
  /**
   * The indexes built so far (lookup), by resource, then index (a list: a resource has a few, and a write walks them
   * all, with no entry made per step as a Map's iteration makes), then scope.
   */
  const indexes = new Map<string, { readonly index: RecordIndex; readonly byScope: Map<string, Postings> }[]>();
  /** Every change of a list goes through here, so each index built is kept as the records are. */
  const change = (resource: string, scope: string, id: string, record: StoredRecord | undefined, list = write(resource, scope), key = keyOf(id), previous = list.get(key)): void => {
    const byIndex = indexes.get(resource);
    if (byIndex !== undefined) {
      for (const { index, byScope } of byIndex) {
        const postings = byScope.get(scope);
        if (postings === undefined) continue;
        const was = previous === undefined ? undefined : index.keyOf(previous);
        const now = record === undefined ? undefined : index.keyOf(record);
        if (was === now) continue;
        if (was !== undefined) unpost(postings, was, id);
        if (now !== undefined) post(postings, now, id);
      }
    }
    if (record === undefined) list.delete(key);
    else list.set(key, record);
  };
  /**
   * Notes how to undo one write: the resource's sequence as it is now, and, for a record written (`scope` a string), the
   * record it held, `previous` (none: the undo takes it away again). A sequence alone has `scope` null.
   */
  const noteUndo = (resource: string, scope: string | null, id: string | undefined, previous: StoredRecord | undefined): void => {
    undo[undoLength] = resource;
    undo[undoLength + 1] = scope;
    undo[undoLength + 2] = id;
    undo[undoLength + 3] = previous;
    undo[undoLength + 4] = sequences.get(resource);
    undoLength += UNDO_SLOTS;
  };
  /** Undoes the writes noted, newest first, so each finds the state it was made on. */
  const undoWrites = (): void => {
    for (let at = undoLength - UNDO_SLOTS; at >= 0; at -= UNDO_SLOTS) {
      const resource = undo[at] as string;
      const scope = undo[at + 1] as string | null;
      if (scope !== null) change(resource, scope, undo[at + 2] as string, undo[at + 3] as StoredRecord | undefined);
      const sequence = undo[at + 4] as number | undefined;
      if (sequence === undefined) sequences.delete(resource);
      else sequences.set(resource, sequence);
    }
  };
  const write = (resource: string, scope: string): WritableList => {
    let scopes = own.get(resource);
    if (!scopes) own.set(resource, (scopes = new Map()));
    let list = scopes.get(scope);
    if (!list) {
      // The shared list is never written: this store's changes are kept over it (overlay-list.ts), not in a copy of it.
      const shared = template.lists.get(resource)?.get(scope);
      scopes.set(scope, (list = shared === undefined || shared.size === 0 ? new TailList() : new OverlayList(shared)));
      meter?.add(LIST_BYTES);
    }
    return list;
  };
  return {
    records: (resource, scope) => read(resource, scope).values(),
    count: (resource, scope) => read(resource, scope).size,
    get: (resource, scope, id) => read(resource, scope).get(keyOf(id)),
    set(resource, scope, id, record) {
      revision += 1;
      // The list and the record it held are found once, for the undo and the indexes both (issue 34, point 1).
      const list = write(resource, scope);
      const key = keyOf(id);
      const previous = list.get(key);
      if (undoing) noteUndo(resource, scope, id, previous);
      const stored = immutableJson(record);
      change(resource, scope, id, stored, list, key, previous);
      meter?.add(recordBytes(stored) + ENTRY_BYTES);
      const numeric = Number(id);
      if (Number.isSafeInteger(numeric) && numeric > (sequences.get(resource) ?? 0)) sequences.set(resource, numeric);
    },
    remove(resource, scope, id) {
      const previous = read(resource, scope).get(keyOf(id));
      if (previous === undefined) return false;
      revision += 1;
      if (undoing) noteUndo(resource, scope, id, previous);
      change(resource, scope, id, undefined);
      // Over a shared list, a removal is an entry of its own (overlay-list.ts).
      meter?.add(ENTRY_BYTES);
      return true;
    },
    nextNumber(resource) {
      if (undoing) noteUndo(resource, null, undefined, undefined);
      const next = (sequences.get(resource) ?? 0) + 1;
      sequences.set(resource, next);
      return next;
    },
    sequence: (resource) => sequences.get(resource) ?? 0,
    revision: () => revision,
    scopes: (resource) => new Set([...(template.lists.get(resource)?.keys() ?? []), ...(own.get(resource)?.keys() ?? [])]),
    lookup(resource, scope, index, key) {
      let byIndex = indexes.get(resource);
      if (!byIndex) indexes.set(resource, (byIndex = []));
      let byScope: Map<string, Postings> | undefined;
      for (const built of byIndex) if (built.index === index) byScope = built.byScope;
      if (!byScope) byIndex.push({ index, byScope: (byScope = new Map()) });
      let postings = byScope.get(scope);
      if (!postings) {
        postings = new Map();
        for (const [key, record] of read(resource, scope)) {
          const text = index.keyOf(record);
          if (text !== undefined) post(postings, text, idOfKey(key));
        }
        byScope.set(scope, postings);
      }
      const held = postings.get(key);
      return held === undefined ? NO_IDS : typeof held === 'string' ? [held] : [...held];
    },
    atomically(work, keep) {
      if (undoing) return work();
      undoing = true;
      let kept = false;
      try {
        const result = work();
        kept = keep(result);
        return result;
      } finally {
        undoing = false;
        // Thrown or refused, nothing stays.
        if (!kept) {
          undoWrites();
          revision += 1;
        }
        if (undoLength > UNDO_KEPT) undo = [];
        else undo.fill(undefined, 0, undoLength);
        undoLength = 0;
      }
    },
    snapshot() {
      const out: Record<string, Record<string, StoredRecord[]>> = {};
      for (const resource of new Set([...template.lists.keys(), ...own.keys()])) {
        const scopes = new Set([...(template.lists.get(resource)?.keys() ?? []), ...(own.get(resource)?.keys() ?? [])]);
        for (const scope of scopes) (out[resource] ??= {})[scope] = [...read(resource, scope).values()];
      }
      return out;
    },
    handOver() {
      if (origin !== undefined && own.size === 0) {
        // Nothing written (a load hook that found nothing to do): the state the store was made from, with its lists,
        // not a copy of every list (2.4 million records listed again at start-up with --pets 1000000).
        handedOver.set(origin, { lists: template.lists, sequences: new Map(sequences) });
        return origin;
      }
      const state = this.snapshot();
      const lists: Lists = new Map();
      for (const [resource, scopes] of Object.entries(state)) {
        const byScope = new Map<string, SharedList>();
        for (const scope of Object.keys(scopes)) {
          // A list written over the shared one is made whole: the registry given it keeps it as its never-written template.
          const list = read(resource, scope);
          byScope.set(scope, list instanceof OverlayList ? new Map(list) : (list as SharedList));
        }
        lists.set(resource, byScope);
      }
      handedOver.set(state, { lists, sequences: new Map(sequences) });
      return state;
    },
  };
}

export interface GenericRegistry {
  get(session?: string): GenericStore;
  reset(session?: string): void;
  /**
   * Loads a state, into a session or for everyone; answers why not (nothing changed) when a session cannot hold it.
   * `floors`: by resource, a number its sequence starts past even where no record holds it (buildLists).
   */
  load(state: GenericState, session?: string, floors?: ReadonlyMap<string, number>): string | undefined;
  sessions(): readonly string[];
  dropNotice(session: string): SessionDropReason | undefined;
  /** Bytes (estimated) all session stores hold beyond the shared initial data. */
  sessionMemory(): number;
}

export interface GenericRegistryOptions {
  /** `--max-sessions`: session stores kept at once; past it the least recently used is dropped. */
  readonly maxSessions?: number;
  /** `--max-session-memory`, in bytes: what all session stores may hold together; past it the least recently used are dropped. */
  readonly maxSessionMemory?: number;
  /** Told the name of each session dropped to make room, and which bound made it, for the log. */
  readonly onDrop?: (session: string, reason: SessionDropReason) => void;
}

/** How many dropped names are remembered to tell their client (a bounded map: names are client input). */
const NOTICES_KEPT = 10_000;

interface Session {
  store: GenericStore;
  meter: SessionMeter;
}

/** Counts a session's bytes, and every session's together in `tally` (as mock/conveniences/registry.ts does for the Pet Store). */
class SessionMeter implements Meter {
  bytes = 0;
  #tally: { bytes: number } | undefined;

  constructor(tally: { bytes: number }) {
    this.#tally = tally;
  }

  add(bytes: number): void {
    this.bytes += bytes;
    if (this.#tally !== undefined) this.#tally.bytes += bytes;
  }

  /** The session was dropped or refilled: a caller still holding its old store no longer counts against the budget. */
  detach(): void {
    if (this.#tally !== undefined) this.#tally.bytes -= this.bytes;
    this.#tally = undefined;
  }
}

/**
 * The default store and one per `X-Mock-Session` name, bounded as the Pet Store's are (mock/conveniences/registry.ts, issue 31
 * point 5): at most `maxSessions` of them, and at most `maxSessionMemory` bytes (estimated) held by all of them
 * beyond the shared initial data; past either the least recently used are dropped, told once to the dropped
 * client, and logged through `onDrop`.
 */
export function createGenericRegistry(initial: GenericState, idOf: (resource: string, record: StoredRecord, index: number) => string, options: GenericRegistryOptions = {}): GenericRegistry {
  const maxSessions = options.maxSessions ?? DEFAULT_MAX_SESSIONS;
  const budget = options.maxSessionMemory ?? DEFAULT_MAX_SESSION_MEMORY;
  const template = buildLists(initial, idOf);
  let fallback = fork(template, undefined, initial);
  const sessions = new Recency<Session>();
  const notices = new Recency<SessionDropReason>();
  // Replaced (not zeroed) by a reset of everything, so stores a caller still holds no longer count.
  let tally = { bytes: 0 };

  const open = (from = template, extra = 0): Session => {
    const meter = new SessionMeter(tally);
    meter.add(SESSION_BYTES + extra);
    return { store: fork(from, meter), meter };
  };
  const drop = (name: string, reason: SessionDropReason): void => {
    const session = sessions.delete(name);
    if (session === undefined) return;
    session.meter.detach();
    notices.set(name, reason);
    for (let old = notices.oldest(); old !== undefined && notices.size > NOTICES_KEPT; old = notices.oldest()) notices.delete(old);
    options.onDrop?.(name, reason);
  };
  const sessionFor = (name: string): Session => {
    let session = sessions.use(name);
    if (!session) {
      // Make room first, so no more than maxSessions are ever held, not even while creating one.
      for (let oldest = sessions.oldest(); oldest !== undefined && sessions.size >= maxSessions; oldest = sessions.oldest()) drop(oldest, 'max-sessions');
      session = open();
      sessions.set(name, session);
    }
    if (tally.bytes > budget) {
      // The least recently used go first; this session is the most recent, so it goes last, only when it alone
      // holds more than the budget, and it then starts afresh like any dropped session.
      for (let oldest = sessions.oldest(); oldest !== undefined && oldest !== name && tally.bytes > budget; oldest = sessions.oldest()) drop(oldest, 'max-session-memory');
      if (tally.bytes > budget) {
        drop(name, 'max-session-memory');
        session = open();
        sessions.set(name, session);
      }
    }
    return session;
  };
  return {
    get: (session) => (session === undefined ? fallback : sessionFor(session).store),
    reset(session) {
      if (session === undefined) {
        fallback = fork(template, undefined, initial);
        sessions.clear();
        notices.clear();
        tally = { bytes: 0 };
      } else {
        const found = sessions.peek(session);
        if (found) {
          found.meter.detach();
          const fresh = open();
          found.store = fresh.store;
          found.meter = fresh.meter;
        }
      }
    },
    load(state, session, floors) {
      if (session === undefined) {
        fallback = fork(buildLists(state, idOf, floors));
        return undefined;
      }
      // An imported state shares nothing with the initial data: the session holds all of it, which must fit in the
      // budget, refused as the Pet Store's import is (mock/conveniences/registry.ts) rather than dropped on the next request.
      const needed = SESSION_BYTES + stateBytes(state);
      if (needed > budget) return `The state needs about ${mebibytes(needed)} MiB, more than the ${mebibytes(budget)} MiB all sessions may hold (--max-session-memory); load it without a session or raise the limit. Nothing was changed.`;
      const lists = buildLists(state, idOf, floors);
      sessions.peek(session)?.meter.detach();
      sessions.delete(session);
      sessionFor(session);
      const target = sessions.peek(session)!;
      target.meter.detach();
      const loaded = open(lists, stateBytes(state));
      target.store = loaded.store;
      target.meter = loaded.meter;
      return undefined;
    },
    sessions: () => sessions.keys(),
    // Told once, on the request that started the dropped name afresh.
    dropNotice: (session) => (sessions.has(session) ? notices.delete(session) : undefined),
    sessionMemory: () => tally.bytes,
  };
}

/** An imported state's cost as a session's own data. */
function stateBytes(state: GenericState): number {
  let bytes = 0;
  for (const scopes of Object.values(state)) for (const records of Object.values(scopes)) for (const record of records) bytes += recordBytes(record) + ENTRY_BYTES;
  return bytes;
}
