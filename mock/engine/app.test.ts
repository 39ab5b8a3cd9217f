/**
 * The transport-free core, in process: plain requests in, plain responses
 * out, no server. What a caller of the core sees (answers to plain requests,
 * raw bytes, notes for the log, a throwing operation's 500) on the engine
 * that serves the Pet Store: the generic engine with the contract's rule file
 * (issue 34).
 */
import { describe, expect, it } from 'vitest';
import { KitError } from '../../src/kit-error.js';
import { bundledContract } from '../../src/test-support.js';
import { createMockApp, normalizeBasePath, type MockApp, type MockAppOptions } from './app.js';
import type { Behaviour } from '../behaviour/hooks.js';
import { createGenericEngine } from './engine.js';
import { readBehaviour, readOverlay } from './files.js';
import type { MockRequest } from './message.js';
import { PETSTORE_RULES } from '../behaviour/petstore/options.js';

const { compiled } = await bundledContract();
const app = (options: Partial<Parameters<typeof createMockApp>[0]> = {}) =>
  createMockApp({ compiled, now: new Date('2026-11-01T00:00:00Z'), ...options });
const request = (method: string, path: string, rest: Partial<MockRequest> = {}): MockRequest => ({ method, path, query: {}, headers: {}, ...rest });

const overlay = await readOverlay(PETSTORE_RULES);
const petStoreBehaviour = await readBehaviour(overlay.behaviour!);

/** A core serving the Pet Store with no records, and one whose listPets throws (as code may: a bug, a hook's throw). */
interface Engine {
  readonly name: string;
  core(options?: Partial<MockAppOptions>): MockApp;
  throwingListPets(): MockApp;
}

const ENGINES: readonly Engine[] = [
  {
    name: 'the generic engine with the rule file',
    core: (options) => app({ genericEngine: createGenericEngine, generic: { overlay, behaviour: petStoreBehaviour, fixtures: 'none' }, ...options }),
    // A behaviour module's hook is the generic engine's code around an operation: one that throws is the same bug.
    throwingListPets: () => {
      const throwing: Behaviour = { operations: { listPets: { before: () => { throw new Error('boom'); } } } };
      return app({ genericEngine: createGenericEngine, generic: { overlay, behaviour: { module: throwing, file: 'throwing.mjs' }, fixtures: 'none' } });
    },
  },
];

describe.each(ENGINES)('createMockApp on $name', ({ core, throwingListPets }) => {
  it('answers plain requests, with a body already parsed by another adapter (as MSW would)', () => {
    const served = core();
    const category = served.handle(request('POST', '/categories', { headers: { 'content-type': 'application/json' }, body: { kind: 'json', value: { name: 'Dogs' } } }));
    expect(category).toMatchObject({ status: 201, body: { id: 1, name: 'Dogs' }, headers: { location: '/categories/1', 'content-type': 'application/json' } });
    const pets = served.handle(request('GET', '/pets', { query: { limit: '5' } }));
    expect(pets).toMatchObject({ status: 200, body: [], headers: { 'x-total-count': '0' } });
  });

  it('takes raw bytes too, and checks them as JSON', () => {
    const served = core();
    const bytes = new TextEncoder().encode('{"name":');
    expect(served.handle(request('POST', '/categories', { headers: { 'content-type': 'application/json' }, body: { kind: 'bytes', bytes } }))).toMatchObject({ status: 400, body: { code: 'MALFORMED_JSON' } });
    expect(served.handle(request('POST', '/categories', { body: { kind: 'too-large', limit: 1024 } }))).toMatchObject({ status: 413, body: { code: 'PAYLOAD_TOO_LARGE', status: 413 } });
  });

  it('notes the deprecation for the request log, unless told nobody reads notes (--quiet); the headers stay either way', () => {
    const get = request('GET', '/pets/7');
    const logged = core().handle(get);
    const quiet = core({ notes: false }).handle(get);
    expect(logged.notes).toEqual([expect.stringMatching(/^getPet is deprecated .*use GET \/pets\?id=7$/)]);
    expect(quiet.notes).toBeUndefined();
    expect(quiet).toMatchObject({ status: 404, body: { code: 'PET_NOT_FOUND' } });
    expect(quiet.headers).toEqual(logged.headers);
    expect(Object.keys(quiet.headers)).toEqual(expect.arrayContaining(['deprecation', 'sunset', 'link']));
  });

  it('turns an operation whose code throws into a 500 INTERNAL_ERROR in the Error shape, noted for the log', () => {
    const answer = throwingListPets().handle(request('GET', '/pets'));
    expect(answer).toMatchObject({ status: 500, body: { code: 'INTERNAL_ERROR', status: 500 } });
    expect(answer.notes?.join('\n')).toMatch(/boom/);
  });
});

describe('normalizeBasePath', () => {
  it('checks the base path', () => {
    expect(normalizeBasePath('')).toBe('');
    expect(normalizeBasePath('/api/v1/')).toBe('/api/v1');
    for (const bad of ['api', '/api?x=1', '/a b', '/api#x']) expect(() => normalizeBasePath(bad)).toThrow(KitError);
  });
});
