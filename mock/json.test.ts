import { describe, expect, it } from 'vitest';
import { encodeJson } from './json.js';

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
