/**
 * "Equal" as the stateful checks judge it (issue 9, point 1, second bullet):
 * declared properties only, instants, numeric values, any list order, and no
 * recursion limit (issue 12, finding 8).
 */
import { describe, expect, it } from 'vitest';
import { compareFields, declaredProperties, sameRecord, sameValue } from './compare.js';
import type { Schema } from './generate.js';
import { parseJson } from './json.js';

const PET: Schema = {
  type: 'object',
  required: ['id', 'name'],
  properties: {
    id: { type: 'integer', format: 'int64' },
    name: { type: 'string' },
    shipDate: { type: 'string', format: 'date-time' },
    tags: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' }, weight: { type: 'number' } } } },
  },
};

describe('sameValue and sameRecord', () => {
  it('ignore a field the document does not declare (a server-stamped updatedAt)', () => {
    expect(sameRecord({ id: 1, name: 'Rex', updatedAt: '2026-01-01T00:00:00Z' }, { id: 1, name: 'Rex', updatedAt: '2026-01-01T00:00:07Z' }, PET)).toBe(true);
    expect(sameRecord({ id: 1, name: 'Rex' }, { id: 1, name: 'Max' }, PET)).toBe(false);
  });

  it('compare date-times as instants', () => {
    expect(sameValue({ shipDate: '2026-12-01T09:00:00Z' }, { shipDate: '2026-12-01T11:00:00.000+02:00' }, PET)).toBe(true);
    expect(sameValue({ shipDate: '2026-12-01T09:00:00Z' }, { shipDate: '2026-12-01T09:00:01Z' }, PET)).toBe(false);
  });

  it('compare numbers as values: 1.0 equals 1, and an int64 past 2^53 by its digits', () => {
    expect(sameValue(parseJson('{"id":1.0}'), { id: 1 }, PET)).toBe(true);
    const big = parseJson('{"id":4590224790122085204}');
    expect(sameValue(big, parseJson('{"id":4590224790122085204}'), PET)).toBe(true);
    expect(sameValue(big, parseJson('{"id":4590224790122085205}'), PET)).toBe(false);
    // The double JSON.parse would give is another number.
    expect(sameValue(big, { id: 4590224790122085000 }, PET)).toBe(false);
  });

  it('ignore list order, but not multiplicity', () => {
    const a = { tags: [{ label: 'a', weight: 1 }, { label: 'b', weight: 2.5 }] };
    expect(sameRecord(a, { tags: [{ label: 'b', weight: 2.5 }, { label: 'a', weight: 1.0 }] }, PET)).toBe(true);
    expect(sameRecord({ tags: [{ label: 'a' }, { label: 'a' }] }, { tags: [{ label: 'a' }, { label: 'b' }] }, PET)).toBe(false);
    // Undeclared fields inside list items do not count either.
    expect(sameRecord(a, { tags: [{ label: 'b', weight: 2.5, extra: 1 }, { label: 'a', weight: 1 }] }, PET)).toBe(true);
  });

  it('see the properties of allOf, oneOf and anyOf parts as declared', () => {
    const composed: Schema = { allOf: [{ type: 'object', properties: { name: { type: 'string' } } }, { type: 'object', properties: { id: { type: 'integer' } } }] };
    expect(Object.keys(declaredProperties(composed) ?? {}).sort()).toEqual(['id', 'name']);
    expect(sameRecord({ id: 1, name: 'x', stamp: 1 }, { id: 1, name: 'x', stamp: 2 }, composed)).toBe(true);
  });

  it('hold sent records in an answered array whose records the server filled (each matched once)', () => {
    const ITEMS: Schema = { type: 'object', properties: { Items: { type: 'array', items: { type: 'object', properties: { ItemID: { type: 'string' }, Code: { type: 'string' }, Name: { type: 'string' } } } } } };
    const sent = { Items: [{ Code: 'A1', Name: 'Apple' }] };
    expect(sameValue(sent, { Items: [{ ItemID: 'c8c5', Code: 'A1', Name: 'Apple' }] }, ITEMS)).toBe(true);
    expect(sameValue(sent, { Items: [{ ItemID: 'c8c5', Code: 'A1', Name: 'Pear' }] }, ITEMS)).toBe(false);
    // Greedy first-fit would pair {Code: A1} with the first record and leave {Code: A1, Name: Apple} without one.
    const two = { Items: [{ Code: 'A1' }, { Code: 'A1', Name: 'Apple' }] };
    expect(sameValue(two, { Items: [{ ItemID: '1', Code: 'A1', Name: 'Apple' }, { ItemID: '2', Code: 'A1', Name: 'Other' }] }, ITEMS)).toBe(true);
    expect(sameValue(two, { Items: [{ ItemID: '1', Code: 'A1', Name: 'Other' }, { ItemID: '2', Code: 'A1', Name: 'Other' }] }, ITEMS)).toBe(false);
    expect(sameValue(two, { Items: [{ ItemID: '1', Code: 'A1', Name: 'Apple' }] }, ITEMS)).toBe(false);
  });

  it('compareFields expects no verbatim echo of a value the answer cannot hold as sent, but judges its meaning', () => {
    const ANSWER: Schema = {
      type: 'object',
      properties: { dateOfBirth: { type: 'string', format: 'date-time' }, replyTo: { type: ['string', 'null'] } as unknown as Schema, status: { type: 'string', enum: ['open'] } },
    };
    // A date sent, the answer a date-time: absent is the document's own answer, the same day passes, another day fails.
    expect(compareFields({ dateOfBirth: '2030-01-23' }, {}, '/body', ANSWER)).toEqual([]);
    expect(compareFields({ dateOfBirth: '2030-01-23' }, { dateOfBirth: '2030-01-23T00:00:00Z' }, '/body', ANSWER)).toEqual([]);
    expect(compareFields({ dateOfBirth: '2030-01-23' }, { dateOfBirth: '2030-01-24T00:00:00Z' }, '/body', ANSWER).map((f) => f.pointer)).toEqual(['/body/dateOfBirth']);
    // An integer sent, the answer `type: [string, null]` (3.1): null or its text pass, other text fails.
    expect(compareFields({ replyTo: 1 }, { replyTo: null }, '/body', ANSWER)).toEqual([]);
    expect(compareFields({ replyTo: 1 }, { replyTo: '1' }, '/body', ANSWER)).toEqual([]);
    expect(compareFields({ replyTo: 1 }, { replyTo: '2' }, '/body', ANSWER)).toHaveLength(1);
    // Empty containers carry no data: a server may leave them out; one with data in it may not be left out.
    expect(compareFields({ tags: [{}], meta: {} } as Record<string, unknown>, {}, '/body')).toEqual([]);
    expect(compareFields({ tags: [{ label: 'a' }] }, {}, '/body', PET).map((f) => f.pointer)).toEqual(['/body/tags']);
    // A value the answer can hold is still expected verbatim.
    expect(compareFields({ status: 'open' }, {}, '/body', ANSWER).map((f) => f.message)).toEqual(['status was sent but is missing']);
  });

  it('compareFields judges records inside a list member by member: a member the answer cannot hold is not expected back (OpenAI evals)', () => {
    // The request takes any role; the answer's input items hold an enum of roles (the mock answers `user`).
    const answer: Schema = {
      type: 'object',
      properties: {
        testing_criteria: {
          type: 'array',
          items: { type: 'object', properties: { name: { type: 'string' }, input: { type: 'array', items: { type: 'object', properties: { role: { type: 'string', enum: ['user', 'assistant'] }, content: { type: 'string' } } } } } },
        },
      },
    };
    const sent = { testing_criteria: [{ name: 'whack', input: [{ role: 'jogging', content: 'starboard' }] }] };
    expect(compareFields(sent, { testing_criteria: [{ name: 'whack', input: [{ role: 'user', content: 'starboard' }] }] }, '/body', answer)).toEqual([]);
    // What the answer can hold is still expected as sent, in any order of the records, each matched once.
    expect(compareFields(sent, { testing_criteria: [{ name: 'whack', input: [{ role: 'user', content: 'port' }] }] }, '/body', answer).map((f) => f.pointer)).toEqual(['/body/testing_criteria']);
    const two = { testing_criteria: [{ name: 'a' }, { name: 'b' }] };
    expect(compareFields(two, { testing_criteria: [{ name: 'b' }, { name: 'a' }] }, '/body', answer)).toEqual([]);
    expect(compareFields(two, { testing_criteria: [{ name: 'a' }, { name: 'a' }] }, '/body', answer).map((f) => f.pointer)).toEqual(['/body/testing_criteria']);
    expect(compareFields(two, { testing_criteria: [{ name: 'a' }] }, '/body', answer).map((f) => f.pointer)).toEqual(['/body/testing_criteria']);
  });

  it('compareFields names the field that differs and passes server-added fields', () => {
    expect(compareFields({ name: 'Rex' }, { id: 5, name: 'Rex', extra: true }, '/body', PET)).toEqual([]);
    const findings = compareFields({ name: 'Rex' }, { name: 'Max' }, '/body', PET);
    expect(findings.map((f) => f.pointer)).toEqual(['/body/name']);
  });
});

describe('100,000-deep JSON', () => {
  const DEPTH = 100_000;
  const deepText = (leaf: string): string => `{"name":${'['.repeat(DEPTH)}${leaf}${']'.repeat(DEPTH)}}`;

  it('compare.ts does not overflow the stack on 100,000-deep JSON (issue 12, finding 8)', () => {
    const a = parseJson(deepText('1'));
    const b = parseJson(deepText('1'));
    const c = parseJson(deepText('2'));
    expect(sameValue(a, b)).toBe(true);
    expect(sameValue(a, c)).toBe(false);
    expect(sameRecord(a, b, PET)).toBe(true);
    expect(sameRecord(a, c, PET)).toBe(false);
    // PET's name is a string, which no list sent can come back as (answerHolds): compared where the answer says nothing.
    expect(compareFields(a as Record<string, unknown>, c, '/body').map((f) => f.pointer)).toEqual(['/body/name']);
  });
});
