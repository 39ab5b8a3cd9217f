/**
 * The router's matches the core keeps (issue 22, point 8): the same answer as the router for every kind of request,
 * kept only for matches of the usual methods, frozen, bounded.
 */
import { describe, expect, it } from 'vitest';
import type { Operation } from '../../src/contract/index.js';
import type { RouteMatch, Router } from '../../src/router.js';
import { rememberMatches } from './match-memo.js';

const operation = { operationId: 'getThing' } as Pick<Operation, 'operationId'>;

/** A router of one template, `/things/{id}`, that counts its calls. */
function countingRouter(): { calls: () => number; router: Router } {
  let calls = 0;
  return {
    calls: () => calls,
    router: {
      match(method, path): RouteMatch {
        calls += 1;
        const m = /^\/things\/([^/]+)$/.exec(path);
        if (!m) return { kind: 'no-path' };
        if (method !== 'GET') return { kind: 'no-method', pathTemplate: '/things/{id}', allow: ['GET'] };
        return { kind: 'match', operation: operation as Operation, pathParams: { id: m[1]! } };
      },
    },
  };
}

describe('rememberMatches', () => {
  it('keeps a match the second time its path is seen, then answers it without the router, with frozen path parameters', () => {
    const counted = countingRouter();
    const match = rememberMatches(counted.router);
    const first = match('GET', '/things/1');
    // Seen once: the router's own match, nothing kept (a path seen once, such as a new record's, is rarely seen again).
    expect(first.kind === 'match' && Object.isFrozen(first.pathParams)).toBe(false);
    const second = match('GET', '/things/1');
    const again = match('GET', '/things/1');
    expect(again).toEqual({ kind: 'match', operation, pathParams: { id: '1' } });
    expect(again).toEqual(first);
    expect(again).toBe(second);
    expect(counted.calls()).toBe(2);
    expect(again.kind === 'match' && Object.isFrozen(again.pathParams)).toBe(true);
  });

  it('keeps no refusal: a 404 or a 405 path goes to the router each time, and answers as the router does', () => {
    const counted = countingRouter();
    const match = rememberMatches(counted.router);
    expect(match('GET', '/nothing')).toEqual({ kind: 'no-path' });
    expect(match('GET', '/nothing')).toEqual({ kind: 'no-path' });
    expect(match('POST', '/things/1')).toEqual({ kind: 'no-method', pathTemplate: '/things/{id}', allow: ['GET'] });
    expect(match('POST', '/things/1')).toEqual({ kind: 'no-method', pathTemplate: '/things/{id}', allow: ['GET'] });
    expect(counted.calls()).toBe(4);
  });

  it('keeps paths apart by method, and leaves unusual methods and long paths to the router', () => {
    const counted = countingRouter();
    const match = rememberMatches(counted.router);
    match('GET', '/things/1');
    expect(match('HEAD', '/things/1')).toEqual({ kind: 'no-method', pathTemplate: '/things/{id}', allow: ['GET'] });
    const long = `/things/${'x'.repeat(600)}`;
    match('GET', long);
    match('GET', long);
    expect(counted.calls()).toBe(4);
  });

  it('starts over past its bound: every path still matches as the router says', () => {
    const counted = countingRouter();
    const match = rememberMatches(counted.router);
    for (let i = 0; i < 2000; i += 1) {
      const found = match('GET', `/things/${i}`);
      expect(found.kind === 'match' && found.pathParams['id']).toBe(String(i));
    }
    expect(counted.calls()).toBe(2000);
  });
});
