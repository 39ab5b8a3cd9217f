import { describe, expect, it } from 'vitest';
import { isDeepStrictEqual } from 'node:util';
import { copiedFields, emptyRecord, encodeJson, fieldCount, immutableFresh, immutableJson, isImmutableJson } from './json.js';

describe('encodeJson: JSON.stringify, byte for byte, with the text of immutable records kept', () => {
  it.each([
    ['a frozen record', Object.freeze({ id: 1, name: 'Rex', categoryId: 2, status: 'available' })],
    ['a page of frozen records', [Object.freeze({ id: 1, name: 'Rex' }), Object.freeze({ id: 2, name: 'Tom "the cat"' })]],
    ['an empty page', []],
    ['a plain object', { code: 'PET_NOT_FOUND', message: 'No pet has id 9.', status: 404 }],
    ['nested values', { details: [{ path: '/body', message: 'must be object' }], nested: Object.freeze({ a: Object.freeze([1, 2]) }) }],
    ['what JSON cannot hold inside an array', [undefined, () => 1, null, 1.5, 'text', true]],
    ['non-ASCII text', [Object.freeze({ name: 'Ünïcødé 🐕' })]],
    ['a primitive', 'just text'],
  ])('%s', (_name, body) => {
    expect(encodeJson(body)).toBe(JSON.stringify(body));
    // The second call may come from the kept text: it must be the same.
    expect(encodeJson(body)).toBe(JSON.stringify(body));
  });

  it('a frozen record is encoded once: later answers reuse its text', () => {
    let reads = 0;
    const record = Object.freeze(Object.defineProperty({ id: 1 }, 'name', { enumerable: true, get: () => `read ${++reads}` }));
    expect(encodeJson([record])).toBe('[{"id":1,"name":"read 1"}]');
    const readsToEncode = reads;
    expect(encodeJson(record)).toBe('{"id":1,"name":"read 1"}');
    expect(encodeJson([record, record])).toBe('[{"id":1,"name":"read 1"},{"id":1,"name":"read 1"}]');
    expect(reads).toBe(readsToEncode);
  });

  it('keeps no text for what could still change: unfrozen objects, and frozen ones holding objects', () => {
    const open = { id: 1, name: 'Rex' };
    expect(encodeJson(open)).toBe('{"id":1,"name":"Rex"}');
    open.name = 'Max';
    expect(encodeJson(open)).toBe('{"id":1,"name":"Max"}');

    const inner = { name: 'Rex' };
    const shallow = Object.freeze({ id: 1, inner });
    expect(encodeJson([shallow])).toBe('[{"id":1,"inner":{"name":"Rex"}}]');
    inner.name = 'Max';
    expect(encodeJson([shallow])).toBe('[{"id":1,"inner":{"name":"Max"}}]');
  });

  it('honours toJSON, and keeps no text for an object that has one', () => {
    let calls = 0;
    const record = Object.freeze({ id: 1, toJSON: () => ({ calls: ++calls }) });
    expect(encodeJson(record)).toBe('{"calls":1}');
    expect(encodeJson(record)).toBe('{"calls":2}');
  });
});

describe('immutableJson: deep, frozen copies whose text can be kept (the generic engine\'s records, issue 22)', () => {
  const record = (): Record<string, unknown> => ({
    sid: 'MG1',
    links: { phone_numbers: 'https://example.com/MG1/PhoneNumbers', nested: { deeper: [1, { two: 2 }] } },
    tags: ['a', 'b'],
    gone: undefined,
    nothing: null,
    ratio: Number.NaN,
  });

  it('freezes a copy all the way down and leaves the value it was given as it was', () => {
    const original = record();
    const copy = immutableJson(original);
    expect(copy).not.toBe(original);
    expect(Object.isFrozen(original)).toBe(false);
    expect(Object.isFrozen(original['links'])).toBe(false);
    const links = copy['links'] as { nested: { deeper: [number, { two: number }] } };
    expect(Object.isFrozen(copy) && Object.isFrozen(links) && Object.isFrozen(links.nested.deeper) && Object.isFrozen(links.nested.deeper[1])).toBe(true);
    expect(() => {
      links.nested.deeper[1].two = 3;
    }).toThrow(TypeError);
    expect(isImmutableJson(copy)).toBe(true);
    expect(isImmutableJson(original)).toBe(false);
  });

  it('returns an immutable copy as it is, and shares the immutable parts of a new value', () => {
    const stored = immutableJson(record());
    expect(immutableJson(stored)).toBe(stored);
    const envelope = immutableJson({ data: stored, page: [stored, stored] });
    expect(envelope.data).toBe(stored);
    expect(envelope.page[1]).toBe(stored);
    expect(isImmutableJson(envelope)).toBe(true);
  });

  it('encodes as JSON.stringify does, byte for byte, whether or not its parts\' text is kept already', () => {
    const stored = immutableJson(record());
    const odd = immutableJson({ '2': 'integer-like keys first', b: [undefined, null, , 1.5], ['__proto__']: { own: true }, a: 'Ünïcødé 🐕 "quoted"', empty: {}, none: [] });
    const envelope = immutableJson({ services: [stored, odd], meta: { page: 0, key: 'services' } });
    const expected = JSON.stringify(envelope);
    expect(encodeJson(envelope)).toBe(expected);
    // Again, now from the kept texts of the envelope and of its records; and a new envelope of the same records.
    expect(encodeJson(envelope)).toBe(expected);
    const another = immutableJson({ services: [odd, stored], meta: { page: 1 } });
    expect(encodeJson(another)).toBe(JSON.stringify(another));
    expect(encodeJson([stored, odd])).toBe(JSON.stringify([stored, odd]));
    expect(encodeJson(immutableJson([stored]))).toBe(JSON.stringify([stored]));
    expect(JSON.parse(JSON.stringify(odd))).toHaveProperty('__proto__', { own: true });
  });

  it('keeps no text for a copy that holds something other than JSON (a Date): it is frozen, not immutable', () => {
    const when = new Date(0);
    const copy = immutableJson({ at: when, id: 1 });
    expect(Object.isFrozen(copy)).toBe(true);
    expect(isImmutableJson(copy)).toBe(false);
    expect(encodeJson(copy)).toBe('{"at":"1970-01-01T00:00:00.000Z","id":1}');
    when.setTime(1000);
    expect(encodeJson(copy)).toBe('{"at":"1970-01-01T00:00:01.000Z","id":1}');
  });
});

describe('copiedFields: a plain copy of a record, field by field, as a spread gives it', () => {
  it('copies own fields in order, keeps `__proto__` an own field, and the copy of an immutable record is not immutable', () => {
    const parsed = JSON.parse('{"b":1,"__proto__":{"own":true},"a":[2]}') as Record<string, unknown>;
    const copy = copiedFields(parsed);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['b', '__proto__', 'a']);
    expect(JSON.stringify(copy)).toBe(JSON.stringify({ ...parsed }));
    const stored = immutableJson(parsed);
    expect(isImmutableJson(stored)).toBe(true);
    // The mark of an immutable copy is no field: neither a spread nor this copy takes it along, so neither is taken
    // for unchangeable (and given a kept text) while it can still be changed.
    for (const again of [copiedFields(stored), { ...stored }, structuredClone(stored)]) {
      expect(isImmutableJson(again)).toBe(false);
      expect(Reflect.ownKeys(again)).toEqual(['b', '__proto__', 'a']);
    }
    const into = copiedFields({ c: 3 }, copiedFields({ a: 1, c: 0 }));
    expect(into).toEqual({ a: 1, c: 3 });
    expect(Object.keys(into)).toEqual(['a', 'c']);
  });
});

describe('emptyRecord: a plain object sized for the record it will hold (issue 34, point 1)', () => {
  it('is a plain object to every reader, frozen and marked like any other record, whatever its size', () => {
    for (const size of [0, 3, 4, 5, 21, 200]) {
      const record = emptyRecord(size);
      expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
      expect(record.constructor).toBe(Object);
      for (let i = 0; i < size; i += 1) record[`f${i}`] = i;
      const stored = immutableFresh(record);
      expect(stored).toBe(record);
      expect(Object.isFrozen(stored)).toBe(true);
      expect(isImmutableJson(stored)).toBe(true);
      const literal = Object.fromEntries(Array.from({ length: size }, (_, i) => [`f${i}`, i]));
      // Equal as a deep, strict comparison sees it (prototype included), and written as the literal is.
      expect(stored).toStrictEqual(literal);
      expect(isDeepStrictEqual(stored, literal)).toBe(true);
      expect(encodeJson(stored)).toBe(JSON.stringify(literal));
      // Neither a spread nor structuredClone takes the mark along.
      expect(isImmutableJson({ ...stored })).toBe(false);
      expect(isImmutableJson(structuredClone(stored))).toBe(false);
    }
  });

  it('a deep copy (immutableJson) is made of such objects, equal to what it copied', () => {
    const parsed = JSON.parse('{"id":1,"name":"Rex","tags":[{"name":"a"}],"owner":{"id":2,"name":"Ann","since":"2020"}}') as Record<string, unknown>;
    const stored = immutableJson(parsed);
    expect(stored).not.toBe(parsed);
    expect(isDeepStrictEqual(stored, parsed)).toBe(true);
    expect(Object.getPrototypeOf(stored.owner)).toBe(Object.prototype);
    expect(encodeJson(stored)).toBe(JSON.stringify(parsed));
  });

  it('counts own fields as Object.keys does', () => {
    expect(fieldCount({})).toBe(0);
    expect(fieldCount(JSON.parse('{"a":1,"__proto__":{},"b":2}') as Record<string, unknown>)).toBe(3);
  });
});
