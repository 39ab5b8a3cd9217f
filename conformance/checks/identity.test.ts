import { describe, expect, it } from 'vitest';
import { recordWrapper } from './identity.js';
import type { Schema } from '../generate.js';

const object = (properties: Record<string, Schema>): Schema => ({ type: 'object', properties });
const text: Schema = { type: 'string' };

describe('recordWrapper: the member an answer wraps its record in, or none when the record is answered bare', () => {
  it('finds a wrapper beside paging or a request id, and one that declares the fields a write sends', () => {
    expect(recordWrapper(object({ data: object({ id: text, name: text }) }), ['name'])).toBe('data');
    expect(recordWrapper(object({ data: object({ id: text, name: text }), meta: text }))).toBe('data');
    // InfluxDB: two object members, the one that declares what a write sends is the record's.
    expect(recordWrapper(object({ label: object({ name: text }), links: object({ self: text }), a: text, b: text }), ['name'])).toBe('label');
  });

  it('answers none for a bare record that holds an object among its fields (seed 7221: a user with an address)', () => {
    const user = object({ slug: text, name: text, address: object({ city: text, zip: text }) });
    expect(recordWrapper(user, ['slug', 'name', 'address'])).toBeUndefined();
    // A patch that sends only the object member still names it as a field of the record.
    expect(recordWrapper(user, ['address'])).toBeUndefined();
    expect(recordWrapper(object({ id: text, links: object({ self: text }), name: text, more: text }), ['name'])).toBeUndefined();
  });
});
