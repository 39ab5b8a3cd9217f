/**
 * A sent value the answer's own schema cannot hold in any form (outside its enum or const, its lengths, its pattern
 * or its bounds) is expected back in no form: the answer's value is the document's (Rebilly's organization `name`,
 * any length in the request and at most 60 in the answer; its payment token `method`, which the read's enum narrows).
 * Derived from the schema: for each kind of word an answer can set, a value that breaks it and a value that keeps it,
 * drawn by fast-check; the broken one expects nothing, the kept one is still compared (so a server that changes a
 * value its answer could hold is still caught).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { answerHolds, compareFields } from './compare.js';
import type { Schema } from './generate.js';
import { casesForTier } from '../src/test-tier.js';

const RUNS = casesForTier({ fast: 60, full: 300 });

/** One answer member's word, a value that breaks it, a value that keeps it, and another value the answer could give. */
interface Case {
  readonly member: Schema;
  readonly broken: unknown;
  readonly kept: unknown;
  readonly other: unknown;
}

/** A member schema as written in a document. */
const word = (member: Record<string, unknown>): Schema => member as Schema;

const text = fc.string({ minLength: 1, maxLength: 12, unit: 'grapheme-ascii' });

const cases: fc.Arbitrary<Case> = fc.oneof(
  // maxLength: any longer text is past it.
  fc.tuple(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 20 })).map(([max, extra]) => ({ member: word({ type: 'string', maxLength: max }), broken: 'x'.repeat(max + extra), kept: 'k'.repeat(max), other: 'o' })),
  // minLength
  fc.integer({ min: 2, max: 10 }).map((min) => ({ member: word({ type: 'string', minLength: min }), broken: 'b'.repeat(min - 1), kept: 'k'.repeat(min), other: 'o'.repeat(min) })),
  // enum: a text the list lacks.
  fc.uniqueArray(text, { minLength: 2, maxLength: 5 }).chain((options) =>
    text.filter((candidate) => !options.includes(candidate)).map((outside) => ({ member: word({ type: 'string', enum: options }), broken: outside, kept: options[0], other: options[1] })),
  ),
  // const
  fc.tuple(text, text).filter(([a, b]) => a !== b).map(([pinned, outside]) => ({ member: word({ type: 'string', const: pinned }), broken: outside, kept: pinned, other: undefined })),
  // pattern: digits only; a text with a letter breaks it.
  fc.tuple(fc.stringMatching(/^[0-9]{1,6}$/), fc.stringMatching(/^[0-9]{0,3}[a-z][0-9]{0,3}$/)).map(([digits, lettered]) => ({ member: word({ type: 'string', pattern: '^[0-9]+$' }), broken: lettered, kept: digits, other: `${digits}9` })),
  // minimum and maximum, 3.0's boolean exclusive* included.
  fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 1, max: 1000 }), fc.boolean()).map(([min, below, exclusive]) => ({ member: word({ type: 'integer', minimum: min, ...(exclusive ? { exclusiveMinimum: true } : {}) }), broken: exclusive ? min : min - below, kept: min + 1, other: min + 2 })),
  fc.tuple(fc.integer({ min: -1000, max: 1000 }), fc.integer({ min: 1, max: 1000 })).map(([max, above]) => ({ member: word({ type: 'integer', maximum: max }), broken: max + above, kept: max, other: max - 1 })),
);

const answerOf = (member: Schema): Schema => ({ type: 'object', properties: { field: member } });

describe('a value the answer cannot hold in any form', () => {
  it('is expected back in no form, whatever the answer holds for it', () => {
    fc.assert(
      fc.property(cases, fc.oneof(fc.constant(undefined), fc.constant(null), text, fc.integer()), (c, answered) => {
        expect(answerHolds(c.broken, c.member)).toBe('never');
        const actual = answered === undefined ? {} : { field: answered };
        expect(compareFields({ field: c.broken }, actual, '/body', answerOf(c.member))).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it('while a value it can hold is still expected back as sent', () => {
    fc.assert(
      fc.property(cases, (c) => {
        expect(answerHolds(c.kept, c.member)).toBe('verbatim');
        expect(compareFields({ field: c.kept }, { field: c.kept }, '/body', answerOf(c.member))).toEqual([]);
        const changed = compareFields({ field: c.kept }, c.other === undefined ? {} : { field: c.other }, '/body', answerOf(c.member));
        expect(changed.map((finding) => finding.pointer)).toEqual(['/body/field']);
      }),
      { numRuns: RUNS },
    );
  });

  it('a value of another type or format is still compared by what it means', () => {
    expect(answerHolds('2026-11-27', { type: 'string', format: 'date-time' })).toBe('by-meaning');
    expect(compareFields({ field: '2026-11-27' }, { field: '2026-11-27T00:00:00Z' }, '', answerOf({ type: 'string', format: 'date-time' }))).toEqual([]);
    expect(compareFields({ field: '2026-11-27' }, { field: '2026-11-28T00:00:00Z' }, '', answerOf({ type: 'string', format: 'date-time' }))).toHaveLength(1);
    expect(compareFields({ field: 7 }, { field: '7' }, '', answerOf({ type: 'string' }))).toEqual([]);
  });

  it('a null the answer cannot be, or a scalar where the answer holds only objects, is expected back in no form (unseen documents: Discord, OpenAI)', () => {
    const scalar = fc.oneof(text, fc.integer(), fc.boolean());
    // Answers that cannot hold a scalar as sent nor mean it: objects, arrays, null alone, and branches of those only.
    const objectOnly = fc.constantFrom<Schema>(
      word({ type: 'object', properties: { id: { type: 'string' } } }),
      word({ type: 'array', items: { type: 'string' } }),
      word({ anyOf: [{ type: 'object', properties: { id: { type: 'string' } } }, { type: 'null' }] }),
      word({ oneOf: [{ type: 'object' }, { type: 'array', items: {} }] }),
      word({ allOf: [{ type: 'object' }], nullable: true }),
    );
    const notNull = fc.constantFrom<Schema>(word({ type: 'integer', minimum: 0 }), word({ type: 'string' }), word({ type: 'boolean' }), word({ anyOf: [{ type: 'integer' }, { type: 'string' }] }));
    fc.assert(
      fc.property(scalar, objectOnly, notNull, fc.oneof(fc.constant(null), fc.integer(), text), (value, objects, scalars, answered) => {
        expect(answerHolds(value, objects)).toBe('never');
        expect(compareFields({ field: value }, { field: answered }, '', answerOf(objects))).toEqual([]);
        expect(answerHolds(null, scalars)).toBe('never');
        expect(compareFields({ field: null }, { field: answered }, '', answerOf(scalars))).toEqual([]);
      }),
      { numRuns: RUNS },
    );
  });

  it('a text that is no number where a number is answered, and a list of keys where objects are listed, are expected back in no form (Clerk)', () => {
    const words = fc.stringMatching(/^[a-z][a-z -]{0,11}$/);
    fc.assert(
      fc.property(words, fc.integer(), fc.integer({ min: 0, max: 1000 }), (text, answered, number) => {
        const integer = word({ type: 'integer', format: 'int64' });
        expect(answerHolds(text, integer)).toBe('never');
        expect(compareFields({ field: text }, { field: answered }, '', answerOf(integer))).toEqual([]);
        // A number written as text still means the number: a changed one is found.
        expect(answerHolds(String(number), integer)).toBe('by-meaning');
        expect(compareFields({ field: String(number) }, { field: number }, '', answerOf(integer))).toEqual([]);
        expect(compareFields({ field: String(number) }, { field: number + 1 }, '', answerOf(integer))).toHaveLength(1);
        // Keys sent, records listed: the list is the document's own.
        const records = word({ type: 'array', items: { type: 'object', properties: { key: { type: 'string' } } } });
        expect(answerHolds([text], records)).toBe('never');
        expect(compareFields({ field: [text] }, { field: [{ key: 'other' }] }, '', answerOf(records))).toEqual([]);
        // Keys sent, keys listed: still compared.
        const keys = word({ type: 'array', items: { type: 'string' } });
        expect(answerHolds([text], keys)).toBe('verbatim');
        expect(compareFields({ field: [text] }, { field: [`${text}x`] }, '', answerOf(keys))).toHaveLength(1);
      }),
      { numRuns: RUNS },
    );
  });

  it('a text its answer\'s format refuses (email, uuid, uri, ...) is expected back in no form; one it accepts still is (Clerk\'s waitlist)', () => {
    fc.assert(
      fc.property(fc.constantFrom('email', 'uuid', 'uri', 'ipv4', 'duration', 'json-pointer', 'relative-json-pointer'), fc.stringMatching(/^[a-z]{1,10}$/), (format, text) => {
        const member = word({ type: 'string', format });
        expect(answerHolds(text, member)).toBe('never');
        expect(compareFields({ field: text }, { field: 'someone@example.com' }, '', answerOf(member))).toEqual([]);
      }),
      { numRuns: RUNS },
    );
    const email = word({ type: 'string', format: 'email' });
    expect(answerHolds('kim@example.com', email)).toBe('verbatim');
    // InfluxDB's task `every`: any text in the PATCH body, `format: duration` answered.
    expect(answerHolds('P1D', word({ type: 'string', format: 'duration' }))).toBe('verbatim');
    expect(compareFields({ field: 'kim@example.com' }, { field: 'lee@example.com' }, '', answerOf(email))).toHaveLength(1);
  });

  it('inside a record in another, each member is held as its own schema says (Lago: { tax: { rate: "20.0" } } answered { tax: { rate: 20 } })', () => {
    const tax = word({ type: 'object', properties: { tax: { type: 'object', properties: { rate: { type: 'number' }, name: { type: 'string' } } } } });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 100 }), text, (rate, name) => {
        expect(compareFields({ tax: { rate: `${rate}.0`, name } }, { tax: { rate, name } }, '/body', tax)).toEqual([]);
        // A rate that means another number, or a changed name, is still found, at its own pointer.
        expect(compareFields({ tax: { rate: `${rate}.0`, name } }, { tax: { rate: rate + 1, name } }, '/body', tax).map((f) => f.pointer)).toEqual(['/body/tax/rate']);
        expect(compareFields({ tax: { rate: `${rate}.0`, name } }, { tax: { rate, name: `${name}x` } }, '/body', tax).map((f) => f.pointer)).toEqual(['/body/tax/name']);
      }),
      { numRuns: RUNS },
    );
  });

  it('a branch that holds the value as sent is enough: it is still compared (a server that changes it is found)', () => {
    fc.assert(
      fc.property(text, text, (sent, other) => {
        fc.pre(sent !== other);
        const member = word({ anyOf: [{ type: 'object', properties: { id: { type: 'string' } } }, { type: 'string' }, { type: 'null' }] });
        expect(answerHolds(sent, member)).toBe('verbatim');
        expect(compareFields({ field: sent }, { field: sent }, '', answerOf(member))).toEqual([]);
        expect(compareFields({ field: sent }, { field: other }, '', answerOf(member))).toHaveLength(1);
        // A null the answer can be is expected back (or left out).
        expect(answerHolds(null, member)).toBe('verbatim');
        expect(compareFields({ field: null }, { field: other }, '', answerOf(member))).toHaveLength(1);
      }),
      { numRuns: RUNS },
    );
  });

  it('a pattern the runner cannot compile says nothing: the value is taken as held', () => {
    expect(answerHolds('abc', { type: 'string', pattern: '(?<!' })).toBe('verbatim');
  });
});

describe('a member the answer marks readOnly, at any depth', () => {
  it('is not expected back, inside an envelope or a nested record either (PagerDuty: { rule: { created_at } })', async () => {
    const { sentFieldsReflected } = await import('./compare.js');
    const rule: Schema = word({ type: 'object', properties: { name: { type: 'string' }, created_at: { type: 'string', readOnly: true }, steps: { type: 'array', items: { type: 'object', properties: { at: { type: 'string', readOnly: true }, what: { type: 'string' } } } } } });
    const answer = word({ type: 'object', properties: { rule } });
    const sent = { rule: { name: 'r', created_at: '2020-06-02T12:42:37Z', steps: [{ at: 'x', what: 'y' }] } };
    expect(sentFieldsReflected(sent, answer)).toEqual({ rule: { name: 'r', steps: [{ what: 'y' }] } });
    // What is left is still compared: a changed name is found.
    expect(compareFields(sentFieldsReflected(sent, answer), { rule: { name: 'other', created_at: 'now', steps: [{ at: 'z', what: 'y' }] } }, '/body', answer).map((f) => f.pointer)).toEqual(['/body/rule/name']);
    expect(compareFields(sentFieldsReflected(sent, answer), { rule: { name: 'r', created_at: 'now', steps: [{ at: 'z', what: 'y' }] } }, '/body', answer)).toEqual([]);
  });
});

describe('a member the answer does not declare, at any depth (Adyen: AffirmInfo sent, AffirmResponseInfo answered)', () => {
  it('is not expected back inside a nested object, as at the top; the members it declares still are', async () => {
    const { sentFieldsReflected } = await import('./compare.js');
    fc.assert(
      fc.property(fc.constantFrom('supportEmail', 'secret', 'token'), text, text, (undeclared, kept, changed) => {
        fc.pre(kept !== changed);
        const answerPart = word({ type: 'object', additionalProperties: false, properties: { pricePlan: { type: 'string' } } });
        const answer = word({ type: 'object', properties: { affirm: answerPart, other: { type: 'string' } } });
        const sent = { affirm: { [undeclared]: 'a@example.com', pricePlan: kept }, [undeclared]: 'x' };
        expect(sentFieldsReflected(sent, answer)).toEqual({ affirm: { pricePlan: kept } });
        expect(compareFields(sentFieldsReflected(sent, answer), { affirm: { pricePlan: kept } }, '/body', answer)).toEqual([]);
        expect(compareFields(sentFieldsReflected(sent, answer), { affirm: { pricePlan: changed } }, '/body', answer).map((f) => f.pointer)).toEqual(['/body/affirm/pricePlan']);
      }),
      { numRuns: RUNS },
    );
  });
});

describe('a creation or update time the document did not mark readOnly (Ory Hydra: created_at in the create body)', () => {
  it('is not expected back as sent, at the top or inside an envelope; other members still are', async () => {
    const { sentFieldsReflected } = await import('./compare.js');
    const names = fc.constantFrom('created_at', 'createdAt', 'updated_at', 'modifiedOn', 'last_updated', 'inserted_at');
    fc.assert(
      fc.property(names, text, text, (name, kept, changed) => {
        fc.pre(kept !== changed);
        const record = word({ type: 'object', properties: { [name]: { type: 'string', format: 'date-time' }, label: { type: 'string' } } });
        const sent = { [name]: '2030-01-06T15:31:11Z', label: kept };
        expect(sentFieldsReflected(sent, record)).toEqual({ label: kept });
        expect(sentFieldsReflected({ client: sent }, word({ type: 'object', properties: { client: record } }))).toEqual({ client: { label: kept } });
        // The server's own time is its answer; a changed label is still found.
        expect(compareFields(sentFieldsReflected(sent, record), { [name]: '2026-11-27T19:00:00Z', label: kept }, '/body', record)).toEqual([]);
        expect(compareFields(sentFieldsReflected(sent, record), { [name]: '2030-01-06T15:31:11Z', label: changed }, '/body', record)).toHaveLength(1);
      }),
      { numRuns: RUNS },
    );
    // A member of that name that is not a date-time is the client's data: still expected back.
    const plain = word({ type: 'object', properties: { created_at: { type: 'string' } } });
    expect(sentFieldsReflected({ created_at: 'yesterday' }, plain)).toEqual({ created_at: 'yesterday' });
  });
});
