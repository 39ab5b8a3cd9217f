/**
 * The parameter checks the core remembers (issue 22, point 8): only passes, only by the exact values the check
 * reads, frozen, bounded. Each test counts how often the real check ran, so a memo that answered when it must not
 * (another value, a failure, a repeated parameter) fails here.
 */
import { describe, expect, it } from 'vitest';
import type { ParameterSpec } from '../../src/contract/index.js';
import type { ParametersResult, RawParameters } from '../../src/schema/index.js';
import { rememberParameterPasses } from './parameter-memo.js';

const spec = (name: string, where: ParameterSpec['in']): ParameterSpec => ({ name, in: where, required: where === 'path', schema: { type: 'string' }, explode: false });

/** A check that passes values starting with `ok` and counts its runs. */
function countingCheck(): { runs: () => number; check: (raw: RawParameters) => ParametersResult } {
  let runs = 0;
  return {
    runs: () => runs,
    check: (raw) => {
      runs += 1;
      const id = raw.path['id'];
      if (typeof id === 'string' && !id.startsWith('ok')) return { ok: false, diagnostics: [{ pointer: '/path/id', keyword: 'pattern', message: 'must start with ok' }] };
      return { ok: true, values: { path: { ...raw.path }, query: typeof raw.query['q'] === 'string' ? { q: raw.query['q'] } : {}, header: {} } };
    },
  };
}

const raw = (path: Record<string, string>, query: Record<string, string | string[]> = {}, headers: Record<string, string> = {}): RawParameters => ({ path, query, headers });

describe('rememberParameterPasses', () => {
  it('keeps a pass the second time its value is seen, then gives it again without running the check, frozen', () => {
    const counted = countingCheck();
    const check = rememberParameterPasses([spec('id', 'path')], counted.check);
    const first = check(raw({ id: 'ok-1' }));
    // Seen once: checked and answered as the check gave it, nothing kept (a value seen once is rarely seen again).
    expect(Object.isFrozen(first.ok && first.values.path)).toBe(false);
    const second = check(raw({ id: 'ok-1' }));
    const again = check(raw({ id: 'ok-1' }));
    expect(counted.runs()).toBe(2);
    expect(again).toBe(second);
    expect(again).toEqual(first);
    expect(again.ok && again.values.path).toEqual({ id: 'ok-1' });
    expect(again.ok && Object.isFrozen(again.values.path)).toBe(true);
    expect(() => {
      if (again.ok) again.values.path['id'] = 'changed';
    }).toThrow(TypeError);
  });

  it('checks another value, and never remembers a failure: its diagnostics come from the check every time', () => {
    const counted = countingCheck();
    const check = rememberParameterPasses([spec('id', 'path')], counted.check);
    check(raw({ id: 'ok-1' }));
    expect(check(raw({ id: 'ok-2' })).ok).toBe(true);
    expect(check(raw({ id: 'bad' })).ok).toBe(false);
    expect(check(raw({ id: 'bad' })).ok).toBe(false);
    expect(counted.runs()).toBe(4);
  });

  it('tells an absent parameter from any text, and keys several values without ambiguity', () => {
    const counted = countingCheck();
    const check = rememberParameterPasses([spec('q', 'query')], counted.check);
    for (let i = 0; i < 2; i += 1) {
      expect(check(raw({}, {}))).toMatchObject({ ok: true, values: { query: {} } });
      // A value that would read like the absent marker, or the empty text, is a value of its own.
      expect(check(raw({}, { q: '' }))).toMatchObject({ ok: true, values: { query: { q: '' } } });
    }
    expect(check(raw({}, {}))).toMatchObject({ ok: true, values: { query: {} } });
    expect(check(raw({}, { q: '' }))).toMatchObject({ ok: true, values: { query: { q: '' } } });
    expect(counted.runs()).toBe(4);

    const two = countingCheck();
    const both = rememberParameterPasses([spec('id', 'path'), spec('q', 'query')], two.check);
    // 'ok1' + '2:x' and 'ok12' + ':x' would join to one text without the lengths.
    for (let i = 0; i < 3; i += 1) {
      expect(both(raw({ id: 'ok1' }, { q: '2:x' }))).toMatchObject({ values: { path: { id: 'ok1' }, query: { q: '2:x' } } });
      expect(both(raw({ id: 'ok12' }, { q: ':x' }))).toMatchObject({ values: { path: { id: 'ok12' }, query: { q: ':x' } } });
    }
    expect(two.runs()).toBe(4);
  });

  it('checks a repeated parameter (an array of values) every time', () => {
    const counted = countingCheck();
    const check = rememberParameterPasses([spec('q', 'query')], counted.check);
    check(raw({}, { q: ['a', 'b'] }));
    check(raw({}, { q: ['a', 'b'] }));
    expect(counted.runs()).toBe(2);
  });

  it('reads a header parameter by its lower-case name, so another header value is checked again', () => {
    const counted = countingCheck();
    const check = rememberParameterPasses([spec('X-Trace', 'header')], counted.check);
    check(raw({}, {}, { 'x-trace': 'a' }));
    check(raw({}, {}, { 'x-trace': 'a' }));
    check(raw({}, {}, { 'x-trace': 'a' }));
    check(raw({}, {}, { 'x-trace': 'b' }));
    expect(counted.runs()).toBe(3);
  });

  it('starts over past its bound rather than growing: every value is still answered by the check', () => {
    const counted = countingCheck();
    const check = rememberParameterPasses([spec('id', 'path')], counted.check);
    for (let i = 0; i < 500; i += 1) expect(check(raw({ id: `ok-${i}` })).ok).toBe(true);
    expect(counted.runs()).toBe(500);
  });

  it('is the check itself for an operation without parameters', () => {
    const counted = countingCheck();
    expect(rememberParameterPasses([], counted.check)).toBe(counted.check);
  });
});
