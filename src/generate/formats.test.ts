/**
 * Every string format the kit's Ajv checks (ajv-formats' full set, read from the instance, so a format it adds later
 * is held here at once) has a generated value that Ajv takes, in both styles and for many seeds. A format without one
 * was written as free text, which Ajv refuses: the generic mock could not make an InfluxDB task (`every: format:
 * duration`) and answered 500 to every read of one (found running the runner against the mock on InfluxDB's OSS
 * document, unseen before).
 */
import { Faker, en } from '@faker-js/faker';
import { describe, expect, it } from 'vitest';
import { createAjv } from '../schema/index.js';
import { formatted } from './formats.js';

const ajv = createAjv();
// The numeric formats (int32, int64, float, double) judge numbers; a string of them is not asked for.
const STRING_FORMATS = Object.entries(ajv.formats)
  .filter(([, format]) => !(typeof format === 'object' && !(format instanceof RegExp) && format.type === 'number'))
  .map(([name]) => name);

describe('a generated value for every string format Ajv checks', () => {
  it('covers the formats a document names most (the list is read from Ajv, not written here)', () => {
    expect(STRING_FORMATS).toEqual(expect.arrayContaining(['date-time', 'date', 'time', 'duration', 'uri', 'uri-template', 'email', 'uuid', 'regex', 'json-pointer', 'byte']));
  });

  it.for(STRING_FORMATS)('%s: Ajv takes the value made, in both styles and for 50 seeds', (format) => {
    const validate = ajv.compile({ type: 'string', format });
    for (const style of ['plain', 'lifelike'] as const) {
      for (let seed = 1; seed <= 50; seed++) {
        const faker = new Faker({ locale: [en], seed });
        // A format the kit makes no value of is written as free text by the caller (generate.ts): that text must do.
        const value = formatted(format, faker, style) ?? 'free text';
        expect(validate(value), `${format} (${style}, seed ${seed}): ${JSON.stringify(value)}`).toBe(true);
      }
    }
  });
});
