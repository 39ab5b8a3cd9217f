/**
 * The passive tally on its own: the grouping the runner always had (one listed failure per reason, the rest in
 * `alike`), and the bound a long proxy session needs (reasons past `maxReasons` counted, not kept).
 */
import { describe, expect, it } from 'vitest';
import { loadContract } from '../src/contract/index.js';
import { DEFAULT_SPEC_PATH } from '../src/package-info.js';
import type { Exchange } from './model.js';
import { PassiveTally } from './passive-tally.js';

const contract = await loadContract(DEFAULT_SPEC_PATH);
const exchange = (n: number): Exchange => ({ request: { method: 'GET', url: `http://t/pets/${n}`, headers: {} }, response: { status: 200, headers: {}, bodyExcerpt: '{}', bodyBytes: 2, truncated: false }, durationMs: 1 });
const fail = (message: string) => ({ verdict: 'fail' as const, reason: message, findings: [{ pointer: '/body/name', keyword: 'required', message }] });
const check = { id: 'response-schema', description: 'bodies validate' };

describe('PassiveTally', () => {
  it('passes an operation whose judged exchanges all passed, saying how many', () => {
    const tally = new PassiveTally({ maxListed: 2, noneJudged: 'nothing judged' });
    for (let i = 0; i < 3; i++) tally.add(check.id, 'getPet', { verdict: 'pass' }, () => ({ title: 't', exchange: exchange(i) }));
    expect(tally.results(check, contract)).toEqual([expect.objectContaining({ operationId: 'getPet', verdict: 'passed', title: 'getPet: 3 exchanges judged' })]);
    expect(tally.failures).toBe(0);
  });

  it('lists the first failures of one reason with their exchange and counts the rest as alike', () => {
    const tally = new PassiveTally({ maxListed: 2, noneJudged: 'nothing judged' });
    let built = 0;
    for (let i = 0; i < 5; i++) {
      tally.add(check.id, 'getPet', fail(`pet ${i} lacks name`), () => {
        built += 1;
        return { title: `GET /pets/${i}`, exchange: exchange(i) };
      });
    }
    const results = tally.results(check, contract);
    expect(results.map((r) => [r.title, r.alike])).toEqual([
      ['GET /pets/0', undefined],
      ['GET /pets/1', 3],
    ]);
    // Evidence is built only for what is listed.
    expect(built).toBe(2);
    expect(tally.failures).toBe(5);
  });

  it('keeps at most maxReasons reasons per operation and counts the others in one result', () => {
    const tally = new PassiveTally({ maxListed: 1, maxReasons: 2, noneJudged: 'nothing judged' });
    for (const word of ['alpha', 'beta', 'gamma', 'delta']) tally.add(check.id, 'listPets', fail(`field ${word} is wrong`), () => ({ title: word, exchange: exchange(1) }));
    const results = tally.results(check, contract);
    expect(results.map((r) => r.title)).toEqual(['alpha', 'beta', 'listPets: 2 more failing exchanges with reasons other than the 2 listed, counted but not kept']);
    expect(results.every((r) => r.verdict === 'failed')).toBe(true);
    expect(tally.failures).toBe(4);
  });

  it('skips a check that judged nothing, with the reason given', () => {
    const tally = new PassiveTally({ maxListed: 1, noneJudged: 'no exchange of the session was one this check judges' });
    expect(tally.results(check, contract)).toEqual([expect.objectContaining({ verdict: 'skipped', reason: 'no exchange of the session was one this check judges' })]);
  });
});
