/**
 * What prototype-keys plants (checks/prototype-keys.ts): only values no correct server could give a record by
 * itself, so a correct server never fails it. The check itself runs against the reference server's
 * proto-pollution mutant in reference.test.ts and against our mock in every full run.
 */
import { describe, expect, it } from 'vitest';
import type { Schema } from '../generate.js';
import { plantedValues } from './prototype-keys.js';

const record: Schema = {
  type: 'object',
  properties: { id: { type: 'integer' }, name: { type: 'string' }, description: { type: 'string' }, code: { type: 'string' }, status: { type: 'string' }, note: { type: 'string' }, done: { type: 'boolean' } },
};

describe('plantedValues', () => {
  it('plants the tag in optional free text the record shows, nothing else', () => {
    const body: Schema = {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string' },
        description: { type: 'string', maxLength: 200 },
        code: { type: 'string', pattern: '^[A-Z]{3}$' },
        status: { type: 'string', enum: ['a', 'b'], default: 'a' },
        done: { type: 'boolean', default: false },
        hidden: { type: 'string' },
        id: { type: 'integer' },
      },
    };
    expect(plantedValues(body, record, 'pk-proto-x1')).toEqual({ description: 'pk-proto-x1' });
  });

  it('leaves out a text whose length bounds refuse the tag, and a read-only one', () => {
    const body: Schema = { type: 'object', properties: { description: { type: 'string', maxLength: 5 }, note: { type: 'string', readOnly: true } } };
    expect(plantedValues(body, record, 'pk-proto-x1')).toEqual({});
  });
});
