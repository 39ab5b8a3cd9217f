import { describe, expect, it } from 'vitest';
import { createAjv, createLenientAjv } from './ajv.js';
import { safePattern } from './safe-pattern.js';

describe('safePattern keeps its verdicts per value (issue 22, point 8: a mock checks the same values again and again)', () => {
  it('answers the same for a value asked again, past the bound of kept verdicts, and for a value too long to keep', () => {
    const sid = safePattern('^MG[0-9a-fA-F]{32}$')!;
    const good = `MG${'a'.repeat(32)}`;
    for (let round = 0; round < 3; round += 1) {
      expect(sid.test(good)).toBe(true);
      expect(sid.test(`${good}x`)).toBe(false);
    }
    // More distinct values than one pattern keeps: the early ones are checked afresh, with the same verdicts.
    for (let i = 0; i < 3000; i += 1) expect(sid.test(`MG${i.toString(16).padStart(32, '0')}`)).toBe(true);
    expect(sid.test(good)).toBe(true);
    expect(sid.test('MGzz')).toBe(false);
    const long = safePattern('b$')!;
    expect(long.test(`${'a'.repeat(300)}b`)).toBe(true);
    expect(long.test(`${'a'.repeat(300)}c`)).toBe(false);
  });

  it('keeps the verdicts of one pattern apart from another', () => {
    expect(safePattern('^a')!.test('abc')).toBe(true);
    expect(safePattern('^b')!.test('abc')).toBe(false);
    expect(safePattern('^a')!.test('abc')).toBe(true);
  });
});

describe('the string formats keep their verdicts per value', () => {
  it.each([
    ['strict', createAjv()],
    ['lenient', createLenientAjv()],
  ])('%s Ajv: a value asked again gets the same verdict, valid or not, and a number format is untouched', (_name, ajv) => {
    const dateTime = ajv.compile({ type: 'string', format: 'date-time' });
    const uri = ajv.compile({ type: 'string', format: 'uri' });
    const int32 = ajv.compile({ type: 'integer', format: 'int32' });
    for (let round = 0; round < 3; round += 1) {
      expect(dateTime('2015-07-30T20:12:31Z')).toBe(true);
      expect(dateTime('2015-07-30T25:12:31Z')).toBe(false);
      expect(dateTime('/Date(1573755038314)/')).toBe(false);
      expect(uri('https://messaging.twilio.com/v1/Services')).toBe(true);
      expect(uri('not a uri')).toBe(false);
      expect(int32(2 ** 31)).toBe(false);
      expect(int32(7)).toBe(true);
    }
  });
});
