/**
 * The boundary values and near misses derived from a schema (issue 30, classes 2 to 4): each edge a schema allows
 * is valid for it as the compiled validator sees it, each near miss of the type-mutation kind breaks it, and the
 * rounds of real-user data change only what they may. Swept over every combination of the constructs a field can
 * have (type, nullable, enum, format, bounds), not over one document's fields.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/index.js';
import { compileContract, type CompiledContract } from '../../src/schema/index.js';
import type { Schema } from '../generate.js';
import { parseJson, stringifyJson } from '../json.js';
import { bodyFields, DATE_TIME_FORMS, edgeRoundBody, EDGE_ROUNDS, integerEdges, MAX_SAFE, nearMisses, nonJsonNumberTexts, onlySpaces, realUserTexts, TWO_TO_31, withValueAt } from './boundaries.js';

/** Every field shape the sweep tries: each type, with and without nullable, enum, format and bounds. */
function fieldSchemas(): Schema[] {
  const out: Schema[] = [];
  for (const nullable of [false, true]) {
    out.push({ type: 'string', nullable }, { type: 'string', minLength: 3, maxLength: 8, nullable }, { type: 'string', enum: ['available', 'sold'], nullable });
    out.push({ type: 'string', format: 'date-time', nullable }, { type: 'string', format: 'date', nullable });
    out.push({ type: 'integer', nullable }, { type: 'integer', minimum: 1, nullable }, { type: 'integer', minimum: 0, maximum: 100, nullable }, { type: 'integer', format: 'int32', nullable }, { type: 'integer', format: 'int64', minimum: 1, nullable });
    out.push({ type: 'number', minimum: 0, nullable }, { type: 'boolean', nullable }, { type: 'array', items: { type: 'string' }, nullable }, { type: 'object', properties: { a: { type: 'string' } }, nullable });
  }
  return out;
}

describe('boundaries: values at and past the edges of a schema', () => {
  let dir: string;
  let compiled: CompiledContract;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'petstore-kit-boundaries-'));
    const file = join(dir, 'doc.json');
    writeFileSync(file, JSON.stringify({ openapi: '3.0.3', info: { title: 'boundaries', version: '1' }, paths: {} }));
    compiled = compileContract(await loadContract(file));
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const valid = (s: Schema, value: unknown): boolean => compiled.validate(s, parseJson(stringifyJson(value)), 'request').length === 0;

  it('gives every field shape near misses its schema refuses, of a JSON type it does not allow, null only where not nullable', () => {
    for (const s of fieldSchemas()) {
      const misses = nearMisses(s);
      expect(misses.length, JSON.stringify(s)).toBeGreaterThan(0);
      for (const miss of misses.filter((m) => m.kind === 'wrong-type' || m.kind === 'null')) {
        expect(valid(s, miss.value), `${JSON.stringify(s)}: ${miss.description}`).toBe(false);
      }
      expect(misses.some((m) => m.value === null)).toBe(!s.nullable);
    }
  });

  it('sends the lax parsers their favourite coercions: a numeric string for a number, 1 for a flag, a one-item array for a scalar', () => {
    const descriptions = (s: Schema): string[] => nearMisses(s).map((m) => JSON.stringify(m.value));
    expect(descriptions({ type: 'integer', minimum: 1 })).toEqual(expect.arrayContaining(['"1"', '1.5', 'true', '[1]', '{}', 'null']));
    expect(descriptions({ type: 'boolean' })).toEqual(expect.arrayContaining(['"true"', '1', '[true]']));
    expect(descriptions({ type: 'string' })).toEqual(expect.arrayContaining(['12345', 'true', '["x"]']));
  });

  it('writes each enum value in another case, and never one the enum holds', () => {
    const s: Schema = { type: 'string', enum: ['available', 'Pending'] };
    const cased = nearMisses(s).filter((m) => m.kind === 'enum').map((m) => m.value);
    expect(cased).toEqual(expect.arrayContaining(['AVAILABLE', 'Available', 'PENDING', 'pending']));
    for (const value of cased) expect(valid(s, value), String(value)).toBe(false);
  });

  it('gives date-times the near misses other parsers take; the ones RFC 3339 refuses are refused by the validator', () => {
    const s: Schema = { type: 'string', format: 'date-time' };
    const misses = nearMisses(s).filter((m) => m.kind === 'format');
    expect(misses.map((m) => m.value)).toEqual(expect.arrayContaining(['2026-07-01', '2026-07-01T10:00:00', 'Wed, 01 Jul 2026 10:00:00 GMT']));
    // Which ones the validator accepts is the validator's business (the check skips those); these it must refuse:
    for (const value of ['2026-07-01', '2026-07-01T10:00:00', '2026-13-01T10:00:00Z', 'Wed, 01 Jul 2026 10:00:00 GMT']) expect(valid(s, value), value).toBe(false);
  });

  it('keeps integer edges within the bounds and the format, and the real-user texts within maxLength', () => {
    for (const s of fieldSchemas()) {
      for (const edge of integerEdges(s)) expect(valid(s, edge.value), `${JSON.stringify(s)}: ${edge.description}`).toBe(true);
    }
    expect(integerEdges({ type: 'integer' }).map((e) => e.value)).toEqual([TWO_TO_31 - 1, TWO_TO_31, MAX_SAFE]);
    expect(integerEdges({ type: 'integer', format: 'int32' }).map((e) => e.value)).toEqual([TWO_TO_31 - 1]);
    expect(integerEdges({ type: 'integer', maximum: 100 })).toEqual([]);
    for (const max of [3, 8, 20, undefined]) {
      for (const text of realUserTexts('pkTAG-1', max)) {
        expect([...String(text.value)].length).toBeLessThanOrEqual(max ?? Infinity);
        if (max === undefined) expect(String(text.value)).toContain('pkTAG-1');
      }
    }
    expect(realUserTexts('t', undefined).map((t) => t.value)).toEqual(expect.arrayContaining([expect.stringContaining('e\u0301'), expect.stringMatching(/^ {2}.*\n.* {2}$/s)]));
    expect(onlySpaces({ type: 'string', minLength: 3 })?.value).toBe('   ');
    expect(onlySpaces({ type: 'string', pattern: '^\\S+$' })).toBeUndefined();
    for (const form of DATE_TIME_FORMS) expect(valid({ type: 'string', format: 'date-time' }, form), form).toBe(true);
  });

  it('changes in a round only what the validator lets it change, and never a kept field', () => {
    const bodySchema: Schema = {
      type: 'object',
      properties: { name: { type: 'string', maxLength: 40 }, categoryId: { type: 'integer' }, quantity: { type: 'integer', minimum: 1 }, complete: { type: 'boolean' }, status: { type: 'string', enum: ['a', 'b', 'c'] }, at: { type: 'string', format: 'date-time' } },
    };
    const body = { name: 'Rex pkTAG', categoryId: 7, quantity: 1, complete: false, status: 'a', at: '2026-01-01T00:00:00Z' };
    const seen = new Set<unknown>();
    for (let index = 0; index < EDGE_ROUNDS; index += 1) {
      const refuseQuantity = (candidate: Record<string, unknown>): boolean => candidate['quantity'] === 1;
      const out = edgeRoundBody({ index, tag: 'pkTAG', numbers: true }, body, bodySchema, new Set(['categoryId']), refuseQuantity);
      expect(out['categoryId']).toBe(7);
      expect(out['quantity']).toBe(1);
      expect(out['complete']).toBe(index % 2 === 0);
      expect(out['status']).toBe(['a', 'b', 'c'][index % 3]);
      expect(String(out['name'])).toContain('pkTAG');
      seen.add(out['name']);
    }
    // Every real-user text once across the rounds.
    expect(seen.size).toBe(EDGE_ROUNDS);
  });

  it('walks nested objects for fields, and writes NaN and Infinity where a number goes, as text JSON cannot parse', () => {
    const bodySchema: Schema = { type: 'object', properties: { n: { type: 'number' }, inner: { type: 'object', properties: { q: { type: 'integer' }, s: { type: 'string' } } }, ro: { type: 'string', readOnly: true } } };
    const body = { n: 1, inner: { q: 2, s: 'x' } };
    const fields = bodyFields(bodySchema, body);
    expect(fields.map((f) => f.pointer)).toEqual(['/n', '/inner', '/inner/q', '/inner/s']);
    expect(withValueAt(body, '/inner/q', 'changed')).toEqual({ n: 1, inner: { q: 'changed', s: 'x' } });
    const texts = nonJsonNumberTexts(body, fields, stringifyJson);
    expect(texts.map((t) => t.text)).toEqual(expect.arrayContaining(['{"n":NaN,"inner":{"q":2,"s":"x"}}', '{"n":1,"inner":{"q":-Infinity,"s":"x"}}']));
    for (const t of texts) expect(() => JSON.parse(t.text), t.text).toThrow();
  });
});
