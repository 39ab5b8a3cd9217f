/**
 * The answer guard takes a create's Location as checked, without the validator, where another Location of the same
 * template passed and the header's schema says nothing a template could break (answer-guard.ts TemplatedPasses;
 * issue 34, point 1). Where the schema bounds the value (a length, a pattern), the first Locations pass and a later
 * one would not: each is checked, and none leaves that the document refuses. Every answer is checked against the
 * document by the client (foreign-client.ts throws on any that breaks it).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileContract } from '../../src/schema/index.js';
import { startMock, type RunningMock } from '../transport/server.js';
import { createForeignClient, type ForeignClient } from './test-support/foreign-client.js';

/** One schema for the record read and the record created, as a document says it with a `$ref`. */
const RECORD = { $ref: '#/components/schemas/Thing' };

/** A collection whose create answers a Location of the given schema. */
function collection(name: string, location: Record<string, unknown>): Record<string, unknown> {
  const item = `${name.slice(0, -1)}Id`;
  return {
    [`/${name}`]: {
      post: {
        operationId: `create_${name}`,
        requestBody: { required: true, content: { 'application/json': { schema: { type: 'object', required: ['label'], properties: { label: { type: 'string' } } } } } },
        responses: { '201': { description: 'created', headers: { Location: { required: true, schema: location } }, content: { 'application/json': { schema: RECORD } } } },
      },
    },
    [`/${name}/{${item}}`]: {
      get: {
        operationId: `get_${name}`,
        parameters: [{ name: item, in: 'path', required: true, schema: { type: 'integer', minimum: 1 } }],
        responses: { '200': { description: 'the record', content: { 'application/json': { schema: RECORD } } }, '404': { description: 'none' } },
      },
    },
  };
}

const DOCUMENT = {
  openapi: '3.0.3',
  info: { title: 'Locations', version: '1.0.0' },
  paths: {
    ...collection('opens', { type: 'string', format: 'uri-reference', example: '/opens/1' }),
    // `/shorts/1` to `/shorts/9` fit in 9 characters; `/shorts/10` does not.
    ...collection('shorts', { type: 'string', format: 'uri-reference', maxLength: 9 }),
    ...collection('digits', { type: 'string', pattern: '^/digits/[1-5]$' }),
  },
  components: { schemas: { Thing: { type: 'object', required: ['id', 'label'], properties: { id: { type: 'integer', minimum: 1 }, label: { type: 'string' } } } } },
};

describe('a create’s Location, checked once per template', () => {
  const work = mkdtempSync(join(tmpdir(), 'templated-location-'));
  const file = join(work, 'locations.json');
  let mock: RunningMock;
  let client: ForeignClient;
  beforeAll(async () => {
    writeFileSync(file, JSON.stringify(DOCUMENT));
    mock = await startMock({ port: 0, specPath: file, fixtures: 'none', log: () => {} });
    client = createForeignClient(mock.url, compileContract(mock.app.contract), mock.app.basePath);
  });
  afterAll(async () => {
    await client.close();
    await mock.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** Twelve creates: each answer's status and Location (the client has checked each against the document). */
  const create = async (name: string): Promise<{ status: number; location: string | undefined; id: unknown }[]> => {
    const out: { status: number; location: string | undefined; id: unknown }[] = [];
    for (let i = 1; i <= 12; i += 1) {
      const answer = await client.send('POST', `/${name}`, { json: { label: `${name} ${i}` } });
      out.push({ status: answer.status, location: answer.headers['location'] as string | undefined, id: (answer.body as { id?: unknown }).id });
    }
    return out;
  };

  it('names each new record where the schema says only that it is a URI reference', async () => {
    const answers = await create('opens');
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
    expect(answers.map((a) => a.location)).toEqual(answers.map((a) => `/opens/${String(a.id)}`));
    expect(new Set(answers.map((a) => a.id)).size).toBe(12);
  });

  it('checks every Location where the schema bounds its length: none past it leaves', async () => {
    const answers = await create('shorts');
    expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
    for (const { location } of answers) expect(location!.length).toBeLessThanOrEqual(9);
    // The first nine are their records' own paths; past them the record's path is too long for the document.
    expect(answers.slice(0, 9).map((a) => a.location)).toEqual(answers.slice(0, 9).map((a) => `/shorts/${String(a.id)}`));
    expect(answers.slice(9).every((a) => a.location !== `/shorts/${String(a.id)}`)).toBe(true);
  });

  it('checks every Location where the schema has a pattern: none it refuses leaves', async () => {
    const answers = await create('digits');
    for (const { location } of answers) expect(location).toMatch(/^\/digits\/[1-5]$/);
    expect(answers.slice(0, 5).map((a) => a.location)).toEqual(answers.slice(0, 5).map((a) => `/digits/${String(a.id)}`));
  });
});
