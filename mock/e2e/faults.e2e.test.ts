/**
 * Issue 13, point 5: faults a front end must survive, each observed by an undici client as the fault it is, and
 * `--chaos` replaying the same failures for the same seed.
 */
import { setupServer } from 'msw/node';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KitError } from '../../src/kit-error.js';
import { mockOptionsFrom } from '../transport/cli.js';
import { createMswMock } from '../msw/node.js';
import { expectError, startTestMock, type TestMock } from '../test-support/harness.js';

let t: TestMock;
beforeAll(async () => {
  t = await startTestMock();
});
afterAll(async () => {
  await t?.close();
});

/** One request on a connection of its own, so a broken connection breaks nothing else. */
async function once(url: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string; headers: Record<string, unknown> } | { error: string }> {
  const dispatcher = new Agent({ connections: 1 });
  try {
    const answer = await request(url, { headers, dispatcher });
    return { status: answer.statusCode, text: await answer.body.text(), headers: answer.headers };
  } catch (error) {
    return { error: (error as { code?: string }).code ?? String(error) };
  } finally {
    await dispatcher.destroy();
  }
}

describe('Prefer: fault', () => {
  it('fault=reset destroys the connection without a response: ECONNRESET', async () => {
    expect(await once(`${t.mock.url}/pets`, { prefer: 'fault=reset' })).toEqual({ error: 'ECONNRESET' });
  });

  it('fault=empty closes the connection before any byte: undici reports the other side closed', async () => {
    expect(await once(`${t.mock.url}/pets`, { prefer: 'fault=empty' })).toEqual({ error: 'UND_ERR_SOCKET' });
  });

  it('fault=malformed answers a complete response whose JSON is cut short', async () => {
    const answer = await once(`${t.mock.url}/pets`, { prefer: 'fault=malformed' });
    if ('error' in answer) throw new Error(answer.error);
    expect(answer.status).toBe(200);
    expect(answer.text.length).toBeGreaterThan(0);
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.text));
    expect(() => JSON.parse(answer.text)).toThrow(SyntaxError);
    expect(answer.headers['preference-applied']).toBe('fault=malformed');
  });

  it('an unknown fault is a 400 naming the ones there are', async () => {
    const answer = await t.client.get('/pets', { headers: { prefer: 'fault=timeout' } });
    expect(expectError(answer, 400, 'VALIDATION_FAILED')['message']).toContain('reset, empty, malformed');
  });

  it('through MSW, reset is a network error to fetch and malformed a body that does not parse', async () => {
    const msw = await createMswMock({ origin: 'http://faults.test' });
    const server = setupServer(...msw.handlers);
    server.listen({ onUnhandledRequest: 'error' });
    try {
      await expect(fetch('http://faults.test/pets', { headers: { prefer: 'fault=reset' } })).rejects.toThrow(TypeError);
      const malformed = await fetch('http://faults.test/pets', { headers: { prefer: 'fault=malformed' } });
      expect(malformed.status).toBe(200);
      await expect(malformed.json()).rejects.toThrow(SyntaxError);
    } finally {
      server.close();
    }
  });
});

describe('--chaos RATE with --seed', () => {
  /** What a client sees for a fixed sequence of requests: a status (with the chaos marker) or a connection error. */
  async function outcomes(seed: number): Promise<string[]> {
    const mock = await startTestMock({ chaos: { rate: 0.5, seed } });
    try {
      const seen: string[] = [];
      for (let i = 0; i < 30; i++) {
        const answer = await once(`${mock.mock.url}${i % 2 === 0 ? '/pets/1' : '/categories'}`);
        seen.push('error' in answer ? answer.error : `${answer.status}${answer.headers['x-mock-chaos'] ? ' chaos' : ''}${answer.status === 200 && !isJson(answer.text) ? ' malformed' : ''}`);
      }
      return seen;
    } finally {
      await mock.close();
    }
  }

  it('fails about that share of requests with documented errors and faults, the same way for the same seed', async () => {
    const first = await outcomes(42);
    expect(await outcomes(42)).toEqual(first);
    expect(await outcomes(43)).not.toEqual(first);
    const failed = first.filter((o) => o !== '200');
    expect(failed.length).toBeGreaterThan(5);
    expect(failed.length).toBeLessThan(25);
    expect(first.some((o) => o.endsWith(' chaos'))).toBe(true);
    expect(first.some((o) => o === 'ECONNRESET' || o === 'UND_ERR_SOCKET' || o.endsWith('malformed'))).toBe(true);
  });
});

describe('--chaos on the command line', () => {
  it('takes a share from 0 to 1; its --seed seeds the failures, and beside --fixtures only them', () => {
    expect(mockOptionsFrom(['--chaos', '0.2', '--seed', '5', '--fixtures', 'fixtures/seed'])).toMatchObject({ chaos: { rate: 0.2, seed: 5 }, fixtures: 'fixtures/seed' });
    expect(mockOptionsFrom(['--chaos', '0.2', '--seed', '5', '--fixtures', 'fixtures/seed']).seed).toBeUndefined();
    expect(mockOptionsFrom(['--chaos', '1', '--seed', '5'])).toMatchObject({ chaos: { rate: 1, seed: 5 }, seed: 5 });
    for (const bad of ['2', '-0.1', 'often', '']) expect(() => mockOptionsFrom(['--chaos', bad]), bad).toThrow(KitError);
  });
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
