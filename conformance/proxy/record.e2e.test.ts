/**
 * `--record DIR`: a session through the proxy in front of the reference server becomes the mock's fixtures, one
 * file per collection, and a HAR file, with the session's credentials redacted; then the recorded data is replayed
 * by the kit's mocks (the HTTP mock and the MSW one, with `--fixtures DIR`): a front-end developer goes offline with
 * what staging held. The reference server implements the same contract as the kit's own document, so the kit's
 * mock serves its recording as it is.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMswMock } from '../../mock/msw/node.js';
import { PACKAGE_ROOT } from '../../src/package-info.js';
import { startMock } from '../../mock/transport/server.js';
import { call, referencePresent, REFERENCE_MISSING, REF_SPEC, startReference, startTestProxy, type Started } from './test-support/servers.js';

if (!referencePresent) console.warn(`record.e2e.test.ts skipped: ${REFERENCE_MISSING}`);

const TOKEN = 'Bearer rec-secret-token-4711';
const COOKIE = 'sid=rec-cookie-value-0815';

describe.skipIf(!referencePresent)('--record: the target’s answers as fixtures and a HAR file, replayed by the mock', () => {
  let target: Started;
  let dir: string;
  let closed: Awaited<ReturnType<Awaited<ReturnType<typeof startTestProxy>>['close']>>;
  let requests = 0;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'proxy-record-'));
    target = await startReference();
    const proxy = await startTestProxy({ target: target.url, specPath: REF_SPEC, record: dir });
    const go = async (method: string, path: string, body?: unknown): Promise<void> => {
      requests += 1;
      const step = await call(proxy.url, method, path, body, { authorization: TOKEN, cookie: COOKIE });
      expect(step.status, `${method} ${path}`).toBeLessThan(300);
    };
    await go('GET', '/categories?limit=100');
    await go('GET', '/pets?limit=100');
    await go('GET', '/store/orders?limit=100');
    await go('GET', '/store/inventory?limit=100');
    await go('POST', '/categories', { name: 'Ferrets', description: 'Curious and quick' });
    await go('GET', '/pets/1');
    closed = await proxy.close();
  }, 60_000);
  afterAll(async () => {
    await target?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes one file per collection, the latest answer of each record, one record a line', async () => {
    expect((await readdir(dir)).sort()).toEqual(['categories.json', 'inventory.json', 'orders.json', 'pets.json', 'session.har']);
    const categories = JSON.parse(await readFile(join(dir, 'categories.json'), 'utf8')) as { name: string }[];
    expect(categories.map((c) => c.name)).toEqual(['Dogs', 'Cats', 'Birds', 'Ferrets']);
    const pets = JSON.parse(await readFile(join(dir, 'pets.json'), 'utf8')) as { id: number; name: string; status: string }[];
    expect(pets.map((p) => `${p.id} ${p.name} ${p.status}`)).toEqual(['1 Rex available', '2 Whiskers available', '3 Tweety pending', '4 Fido sold', '5 Luna available']);
    expect((await readFile(join(dir, 'pets.json'), 'utf8')).split('\n')[1]).toBe('  {"id":1,"name":"Rex","categoryId":1,"status":"available"},');
    expect(closed.recorded).toMatchObject({ records: 4 + 5 + 2 + 5, dropped: 0 });
    // The mock's own loader accepts them as they are (schemas, references, the state rules).
    expect(closed.recorded?.problem).toBeUndefined();
  });

  it('writes the session as HAR 1.2, every exchange, credentials redacted everywhere in the folder', async () => {
    const har = JSON.parse(await readFile(join(dir, 'session.har'), 'utf8')) as { log: { version: string; entries: { request: { method: string; url: string; headers: { name: string; value: string }[] }; response: { status: number; content: { text?: string } } }[] } };
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries.map((e) => `${e.request.method} ${new URL(e.request.url).pathname} ${e.response.status}`)).toEqual([
      'GET /categories 200',
      'GET /pets 200',
      'GET /store/orders 200',
      'GET /store/inventory 200',
      'POST /categories 201',
      'GET /pets/1 200',
    ]);
    expect(har.log.entries).toHaveLength(requests);
    expect(har.log.entries[0]!.request.headers).toContainEqual({ name: 'authorization', value: '[redacted]' });
    expect(JSON.parse(har.log.entries[1]!.response.content.text ?? 'null')).toHaveLength(5);
    for (const file of await readdir(dir)) {
      const text = await readFile(join(dir, file), 'utf8');
      expect(text).not.toContain('rec-secret-token-4711');
      expect(text).not.toContain('rec-cookie-value-0815');
    }
  });

  it('is replayed by the HTTP mock and the MSW mock (--fixtures DIR)', async () => {
    const mock = await startMock({ port: 0, quiet: true, fixtures: dir });
    try {
      const pet = await call(mock.url, 'GET', '/pets/3');
      expect([pet.status, pet.json]).toEqual([200, expect.objectContaining({ name: 'Tweety', status: 'pending' })]);
      const categories = await call(mock.url, 'GET', '/categories?limit=100');
      expect((categories.json as { name: string }[]).map((c) => c.name)).toContain('Ferrets');
    } finally {
      await mock.close();
    }
    const msw = await createMswMock({ fixtures: dir });
    const answer = msw.app.handle({ method: 'GET', path: '/store/orders', query: {}, headers: { accept: 'application/json' } });
    expect(answer.status).toBe(200);
    expect((answer.body as { petId: number; complete: boolean }[]).map((o) => [o.petId, o.complete])).toEqual([
      [3, false],
      [4, true],
    ]);
  });
});

/**
 * Any document: the recorder files records by the mock's own inference (mock/engine/infer.ts), so a document from
 * elsewhere records as the generic engine reads fixtures: a top-level collection as an array, a nested one as an
 * object from its parent's id to arrays, the records out of their list envelopes. Twilio's Messaging API, served by
 * the kit's generic mock as the target, recorded through the proxy, then replayed by a fresh mock from the recording.
 */
describe('--record on a document from elsewhere (Twilio Messaging, nested collections in envelopes)', () => {
  const SPEC = join(PACKAGE_ROOT, 'fixtures', 'published', 'twilio', 'twilio_messaging_v1.json');

  it('records the collections as the generic engine reads them, and a fresh mock serves the recording', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'proxy-record-generic-'));
    const staging = await startMock({ port: 0, quiet: true, specPath: SPEC, seed: 7, log: () => undefined });
    try {
      const proxy = await startTestProxy({ target: staging.url, specPath: SPEC, record: dir });
      const services = (await call(proxy.url, 'GET', '/v1/Services')).json as { services: { sid: string }[] };
      const sid = services.services[0]!.sid;
      const numbers = (await call(proxy.url, 'GET', `/v1/Services/${sid}/PhoneNumbers`)).json as { phone_numbers: { sid: string }[] };
      expect(numbers.phone_numbers.length).toBeGreaterThan(0);
      const closed = await proxy.close();
      expect(closed.recorded?.problem).toBeUndefined();
      const recordedServices = JSON.parse(await readFile(join(dir, 'Services.json'), 'utf8')) as { sid: string }[];
      expect(recordedServices.map((s) => s.sid)).toEqual(services.services.map((s) => s.sid));
      const recordedNumbers = JSON.parse(await readFile(join(dir, 'PhoneNumbers.json'), 'utf8')) as Record<string, { sid: string }[]>;
      expect(Object.keys(recordedNumbers)).toEqual([sid]);

      const offline = await startMock({ port: 0, quiet: true, specPath: SPEC, fixtures: dir, log: () => undefined });
      try {
        const replayed = (await call(offline.url, 'GET', '/v1/Services')).json as { services: { sid: string }[] };
        expect(replayed.services.map((s) => s.sid)).toEqual(services.services.map((s) => s.sid));
        const replayedNumbers = (await call(offline.url, 'GET', `/v1/Services/${sid}/PhoneNumbers`)).json as { phone_numbers: { sid: string }[] };
        expect(replayedNumbers.phone_numbers.map((n) => n.sid)).toEqual(numbers.phone_numbers.map((n) => n.sid));
      } finally {
        await offline.close();
      }
    } finally {
      await staging.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe.skipIf(!referencePresent)('--record: a recording the mock could not start from says why', () => {
  let target: Started;
  let dir: string;
  afterAll(async () => {
    await target?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('a pet read without its category: the mock would refuse it, and the summary names the reference', async () => {
    dir = await mkdtemp(join(tmpdir(), 'proxy-record-partial-'));
    target = await startReference();
    const proxy = await startTestProxy({ target: target.url, specPath: REF_SPEC, record: dir });
    expect((await call(proxy.url, 'GET', '/pets/1')).status).toBe(200);
    const closed = await proxy.close();
    expect(closed.recorded?.records).toBe(1);
    // Asked of the engine `petstore-kit mock --fixtures DIR` starts, with the Pet Store's rule file.
    expect(closed.recorded?.problem).toMatch(/pets\.json at \/0\/categoryId/);
    await expect(startMock({ port: 0, quiet: true, fixtures: dir })).rejects.toThrow(/pets\.json at \/0\/categoryId/);
  }, 60_000);
});
