/**
 * The ids of created records, on a small constructed document with the shapes the sweep of unseen documents found:
 * - ids the mock makes (engine.ts newId): Discord's `SnowflakeType` (`^(0|[1-9][0-9]*)$`) refuses a zero-padded
 *   sequence, and the values generated in its place (`0`, `0`, `4326`, `0`) were not checked against the collection:
 *   twelve creates left a handful of records, each answered under an id another record then took. Now N creates
 *   make N distinct ids, each one its schemas allow and each read back at its own path, whatever the id's schema
 *   (drawn with fast-check from patterns, a uuid format, an integer range), and a collection with no free id left
 *   refuses the create rather than answer for another record.
 * - ids the client chooses (Discord's `POST /stage-instances` with `channel_id`, Typesense's conversation model
 *   `id`): a second create with an id already held answered 200 with another id; now it is refused with the
 *   operation's conflict answer (a 409 its `4XX` covers, else its documented 400, else an undocumented 409 in the
 *   document's Error shape), and nothing changes.
 * Every answer of a documented status is checked against the document (foreign-client.ts throws on any that breaks it).
 */
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileContract } from '../../src/schema/index.js';
import { casesForTier } from '../../src/test-tier.js';
import { startDocumentMock, type DocumentMock } from './test-support/document-mock.js';

const json = (schema: unknown): unknown => ({ 'application/json': { schema } });
const ERROR = { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' } } };

/** Id schemas, each the record's id field and the item path's parameter: what a generated id must satisfy. */
const ID_SCHEMAS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  snowflakes: { type: 'string', pattern: '^(0|[1-9][0-9]*)$' },
  digits: { type: 'string', pattern: '^[0-9]+$' },
  objectids: { type: 'string', pattern: '^[a-f0-9]{24}$' },
  slugs: { type: 'string', pattern: '^[a-z]{2}-[0-9]{2}$' },
  uuids: { type: 'string', format: 'uuid' },
  // Okta governance's integration ids: fixed text (unanchored) and an exact length, beside a format no validator knows.
  typedKeys: { type: 'string', minLength: 20, maxLength: 20, format: 'integration-id', pattern: 'goi[0-9a-zA-Z]+' },
  bounded: { type: 'integer', minimum: 100, maximum: 120 },
};
/** At most this many creates per case: within every schema's room (`bounded` holds 21 ids). */
const MAX_CREATES = 12;

/** A collection whose id the mock makes: POST `{}` (Discord's `POST /lobbies`), GET the list and an item. */
function madeIds(name: string, id: unknown): Record<string, unknown> {
  const record = { type: 'object', required: ['id', 'label'], properties: { id: { ...(id as object), readOnly: true }, label: { type: 'string', maxLength: 20 } } };
  return {
    [`/${name}`]: {
      get: { operationId: `list_${name}`, responses: { '200': { description: 'all', content: json({ type: 'array', items: record }) } } },
      post: {
        operationId: `create_${name}`,
        requestBody: { required: true, content: json({ type: 'object', properties: { label: { type: 'string', maxLength: 20 } } }) },
        responses: { '201': { description: 'created', content: json(record) }, '400': { description: 'refused', content: json(ERROR) } },
      },
    },
    [`/${name}/{itemId}`]: {
      get: {
        operationId: `get_${name}`,
        parameters: [{ name: 'itemId', in: 'path', required: true, schema: id }],
        responses: { '200': { description: 'one', content: json(record) }, '404': { description: 'none', content: json(ERROR) } },
      },
    },
  };
}

/**
 * A collection whose id the client chooses (`channel_id`, the item path's own parameter), with the refusals `errors`
 * documents: Discord's `4XX`, Typesense's `400`, or none at all.
 */
function chosenIds(name: string, errors: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const record = { type: 'object', required: ['channel_id', 'topic'], properties: { channel_id: { type: 'string', pattern: '^[0-9]+$' }, topic: { type: 'string' } } };
  return {
    [`/${name}`]: {
      get: { operationId: `list_${name}`, responses: { '200': { description: 'all', content: json({ type: 'array', items: record }) } } },
      post: {
        operationId: `create_${name}`,
        requestBody: { required: true, content: json(record) },
        responses: { '200': { description: 'created', content: json(record) }, ...errors },
      },
    },
    [`/${name}/{channel_id}`]: {
      get: {
        operationId: `get_${name}`,
        parameters: [{ name: 'channel_id', in: 'path', required: true, schema: { type: 'string', pattern: '^[0-9]+$' } }],
        responses: { '200': { description: 'one', content: json(record) }, '404': { description: 'none', content: json(ERROR) } },
      },
    },
  };
}

/** Traccar's devices: an int64 id the client may send (not readOnly), or leave to the server. */
function devices(): Record<string, unknown> {
  const record = { type: 'object', properties: { id: { type: 'integer', format: 'int64' }, name: { type: 'string', maxLength: 20 } } };
  return {
    '/devices': {
      get: { operationId: 'list_devices', responses: { '200': { description: 'all', content: json({ type: 'array', items: record }) } } },
      post: { operationId: 'create_device', requestBody: { required: true, content: json(record) }, responses: { '200': { description: 'created', content: json(record) }, '400': { description: 'refused', content: json(ERROR) } } },
    },
    '/devices/{id}': {
      get: {
        operationId: 'get_device',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer', format: 'int64' } }],
        responses: { '200': { description: 'one', content: json(record) }, '404': { description: 'none', content: json(ERROR) } },
      },
    },
  };
}

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Ids', version: '1.0.0' },
  paths: {
    ...Object.assign({}, ...Object.entries(ID_SCHEMAS).map(([name, id]) => madeIds(name, id))),
    // Three ids only: the fourth create has none left.
    ...madeIds('colours', { type: 'string', enum: ['red', 'green', 'blue'] }),
    ...chosenIds('stages', { '4XX': { description: 'refused', content: json({ $ref: '#/components/schemas/Error' }) } }),
    ...chosenIds('models', { '400': { description: 'refused', content: json({ $ref: '#/components/schemas/Error' }) } }),
    ...chosenIds('plain', {}),
    ...devices(),
  },
  components: { schemas: { Error: ERROR } },
};

let mock: DocumentMock;
beforeAll(async () => {
  mock = await startDocumentMock(DOCUMENT, { fixtures: 'none' });
});
afterAll(async () => {
  await mock?.close();
});

describe('ids the mock makes for created records', () => {
  let runs = 0;

  for (const [name, schema] of Object.entries(ID_SCHEMAS)) {
    it(`${name} (${JSON.stringify(schema)}): N creates make N distinct ids, each the schema allows and each read back at its own path`, async () => {
      const compiled = compileContract(mock.mock.app.contract);
      await fc.assert(
        fc.asyncProperty(fc.array(fc.option(fc.string({ maxLength: 20 }), { nil: undefined }), { minLength: 2, maxLength: MAX_CREATES }), async (labels) => {
          // A session of its own per case: a fresh copy of the (empty) collections.
          const headers = { 'x-mock-session': `ids-${(runs += 1)}` };
          const made: unknown[] = [];
          for (const label of labels) {
            const created = await mock.client.send('POST', `/${name}`, { json: label === undefined ? {} : { label }, headers });
            expect(created.status).toBe(201);
            made.push((created.body as { id: unknown }).id);
          }
          expect(new Set(made).size).toBe(labels.length);
          for (const id of made) {
            expect(compiled.validate(schema as never, id, 'response')).toEqual([]);
            const read = await mock.client.send('GET', `/${name}/${encodeURIComponent(String(id))}`, { headers });
            expect(read.status).toBe(200);
            expect((read.body as { id: unknown }).id).toEqual(id);
          }
          const list = await mock.client.send('GET', `/${name}`, { headers });
          expect((list.body as { id: unknown }[]).map((record) => record.id)).toEqual(made);
        }),
        { numRuns: casesForTier({ fast: 4, full: 25 }), seed: 22 },
      );
    });
  }

  it('a collection with no free id its schema allows refuses the create, and keeps what it holds', async () => {
    const headers = { 'x-mock-session': 'colours' };
    const made: unknown[] = [];
    for (let i = 0; i < 3; i += 1) made.push(((await mock.client.send('POST', '/colours', { json: { label: `c${i}` }, headers })).body as { id: unknown }).id);
    expect([...made].sort()).toEqual(['blue', 'green', 'red']);
    const refused = await mock.client.send('POST', '/colours', { json: { label: 'c3' }, headers });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ message: expect.stringContaining('no free id') });
    expect(((await mock.client.send('GET', '/colours', { headers })).body as unknown[]).length).toBe(3);
  });
});

describe('an id the client chooses that a record already holds', () => {
  const twice = async (name: string, session: string): Promise<{ status: number; body: unknown }> => {
    const headers = { 'x-mock-session': session };
    const first = await mock.client.send('POST', `/${name}`, { json: { channel_id: '5', topic: 'first' }, headers });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ channel_id: '5', topic: 'first' });
    // Sent past the checking client: a status the operation does not document is the case under test for `plain`.
    const second = await request(`${mock.mock.url}/${name}`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ channel_id: '5', topic: 'second' }) });
    const body: unknown = await second.body.json();
    // Nothing changed: the first record as it was, and the only one.
    expect((await mock.client.send('GET', `/${name}/5`, { headers })).body).toEqual({ channel_id: '5', topic: 'first' });
    expect((await mock.client.send('GET', `/${name}`, { headers })).body).toEqual([{ channel_id: '5', topic: 'first' }]);
    return { status: second.statusCode, body };
  };

  it('is refused with the 409 its documented 4XX covers, in the document’s Error shape', async () => {
    const refused = await twice('stages', 'stages');
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'CONFLICT', message: expect.stringContaining('5 already exists') });
  });

  it('is refused with its documented 400 where it documents no 409', async () => {
    const refused = await twice('models', 'models');
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ message: expect.stringContaining('5 already exists') });
  });

  it('replaces the record under that id where the operation documents no refusal at all (a refusal would be an answer its document does not allow)', async () => {
    const headers = { 'x-mock-session': 'plain' };
    expect((await mock.client.send('POST', '/plain', { json: { channel_id: '5', topic: 'first' }, headers })).status).toBe(200);
    const second = await mock.client.send('POST', '/plain', { json: { channel_id: '5', topic: 'second' }, headers });
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ channel_id: '5', topic: 'second' });
    // The client named the record: the one under that id is the second, and it is the only one.
    expect((await mock.client.send('GET', '/plain/5', { headers })).body).toEqual({ channel_id: '5', topic: 'second' });
    expect((await mock.client.send('GET', '/plain', { headers })).body).toEqual([{ channel_id: '5', topic: 'second' }]);
  });

  it('a free id the client chooses is kept as chosen', async () => {
    const headers = { 'x-mock-session': 'free' };
    for (const id of ['7', '8']) expect((await mock.client.send('POST', '/models', { json: { channel_id: id, topic: id }, headers })).body).toEqual({ channel_id: id, topic: id });
    expect(((await mock.client.send('GET', '/models', { headers })).body as unknown[]).length).toBe(2);
  });
});

describe('after a client chose an id at the top of int64 (Traccar: 2^53 - 2)', () => {
  it('the ids the mock makes next are still free and safe: every create is kept under its own, and read back there', async () => {
    const headers = { 'x-mock-session': 'devices' };
    const chosen = await mock.client.send('POST', '/devices', { json: { id: 9007199254740990, name: 'chosen' }, headers });
    expect(chosen.status).toBe(200);
    const made: unknown[] = [];
    for (let i = 0; i < 5; i += 1) {
      const created = await mock.client.send('POST', '/devices', { json: { name: `d${i}` }, headers });
      expect(created.status).toBe(200);
      made.push((created.body as { id: unknown }).id);
    }
    expect(new Set(made).size).toBe(5);
    for (const id of made) {
      expect(Number.isSafeInteger(id)).toBe(true);
      expect((await mock.client.send('GET', `/devices/${String(id)}`, { headers })).status).toBe(200);
    }
    expect(((await mock.client.send('GET', '/devices', { headers })).body as unknown[]).length).toBe(6);
  });
});
