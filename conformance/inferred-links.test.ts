/**
 * Issue 11, point 5: stateful checks on a document without links
 * (fixtures/documents/no-links.yaml). The runner infers the usual REST shape
 * (links.ts inferLinks): create-read-back, replace-visible and delete-removes
 * run against a tiny in-memory server here, pass when it keeps its records,
 * and fail when it loses them.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadContract } from '../src/contract/index.js';
import { PACKAGE_ROOT } from '../src/package-info.js';
import { buildLinkModel, LOCATION_ID } from './links.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';
import { EDGE_ROUNDS } from './requests/boundaries.js';

const SPEC = join(PACKAGE_ROOT, 'fixtures', 'documents', 'no-links.yaml');
const SPEC_LOCATION = join(PACKAGE_ROOT, 'fixtures', 'documents', 'no-links-location.yaml');
const STATEFUL = ['create-read-back', 'replace-visible', 'delete-removes'] as const;

/** A conformant things server; `forgetful` answers 201 and stores nothing, the defect the stateful checks exist for. */
function thingsServer(options: { forgetful: boolean; idInBody: boolean }): Server {
  const things = new Map<string, Record<string, unknown>>();
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const answer = (status: number, value?: unknown, headers: Record<string, string> = {}): void => {
        res.writeHead(status, value === undefined ? headers : { 'content-type': 'application/json', ...headers }).end(value === undefined ? undefined : JSON.stringify(value));
      };
      const parsed = ((): Record<string, unknown> | undefined => {
        try {
          const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          const ok = typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as Record<string, unknown>)['name'] === 'string';
          return ok ? (value as Record<string, unknown>) : undefined;
        } catch {
          return undefined;
        }
      })();
      const path = new URL(req.url ?? '/', 'http://fixture').pathname;
      const item = /^\/things\/([^/]+)$/.exec(path)?.[1];
      if (path === '/things' && req.method === 'GET') return answer(200, [...things.values()]);
      if (path === '/things' && req.method === 'POST') {
        if (!parsed) return answer(400, { message: 'a thing needs a name' });
        const thing: Record<string, unknown> & { id: string } = { ...parsed, id: randomUUID() };
        if (!options.forgetful) things.set(thing.id, thing);
        return answer(201, options.idInBody ? thing : { name: thing['name'], ...(thing['size'] !== undefined ? { size: thing['size'] } : {}) }, { location: `/things/${thing.id}` });
      }
      if (item !== undefined) {
        const thing = things.get(item);
        if (!thing) return answer(req.method === 'PUT' && !parsed ? 400 : 404, { message: 'no such thing' });
        if (req.method === 'GET') return answer(200, thing);
        if (req.method === 'PUT') {
          if (!parsed) return answer(400, { message: 'a thing needs a name' });
          const replaced = { ...parsed, id: item };
          things.set(item, replaced);
          return answer(200, replaced);
        }
        if (req.method === 'DELETE') {
          things.delete(item);
          return answer(204);
        }
      }
      answer(404, { message: 'no such resource' });
    });
  });
}

let server: Server | undefined;

async function runAgainst(options: { forgetful: boolean; idInBody: boolean }, specPath = SPEC): Promise<RunReport> {
  server = thingsServer(options);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return runConformance({ baseUrl: `http://127.0.0.1:${port}`, specPath, seed: 5, concurrency: 2 });
}

function stateful(report: RunReport): [string, string][] {
  return report.results.filter((r) => (STATEFUL as readonly string[]).includes(r.checkId)).map((r) => [r.checkId, r.verdict]);
}

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

describe('links inferred from the usual REST shape', () => {
  it('createThing gets links to getThing, replaceThing and deleteThing, the id from the body', async () => {
    const model = buildLinkModel(await loadContract(SPEC));
    const kind = model.kinds.get('createThing');
    expect(kind?.inferred).toBe(true);
    expect(kind?.links.map((t) => [t.operation.operationId, t.link.parameters])).toEqual([
      ['getThing', { 'path.thingId': '$response.body#/id' }],
      ['replaceThing', { 'path.thingId': '$response.body#/id' }],
      ['deleteThing', { 'path.thingId': '$response.body#/id' }],
    ]);
    expect(kind?.list?.operationId).toBe('listThings');
    expect(model.pathProducers.get('getThing')?.get('thingId')?.kind).toBe(kind);
  });

  it('a document that declares links on its creates gets none inferred', async () => {
    const model = buildLinkModel(await loadContract(join(PACKAGE_ROOT, 'openapi.yaml')));
    expect([...model.kinds.values()].filter((k) => k.inferred)).toEqual([]);
  });

  it('create-read-back, replace-visible and delete-removes run and pass against a server that keeps its records', async () => {
    const report = await runAgainst({ forgetful: false, idInBody: true });
    expect(stateful(report)).toEqual(expect.arrayContaining(STATEFUL.map((id) => [id, 'passed'])));
    expect(stateful(report).filter(([, verdict]) => verdict !== 'passed')).toEqual([]);
    // A uuid that names nothing gets the 404: the absent-id probe fits the parameter (issue 11, point 4).
    expect(report.results.filter((r) => r.checkId === 'unknown-id-404').map((r) => [r.operationId, r.verdict])).toEqual(
      expect.arrayContaining([
        ['getThing', 'passed'],
        ['deleteThing', 'passed'],
      ]),
    );
  }, 60_000);

  it('without an id in the body, the id comes from the Location header', async () => {
    const model = buildLinkModel(await loadContract(SPEC_LOCATION));
    expect(model.kinds.get('createThing')?.links.map((t) => t.link.parameters['path.thingId'])).toEqual([LOCATION_ID, LOCATION_ID, LOCATION_ID]);
    const report = await runAgainst({ forgetful: false, idInBody: false }, SPEC_LOCATION);
    const readBack = report.results.filter((r) => r.checkId === 'create-read-back');
    // One record plain, one with every optional field and diverse text (issue 19), one per round of real users' data (issue 30).
    expect(readBack.map((r) => r.verdict)).toEqual(Array.from({ length: 2 + EDGE_ROUNDS }, () => 'passed'));
    expect(readBack[0]!.evidence.some((x) => x.request.method === 'GET' && /\/things\/[0-9a-f-]{36}$/.test(x.request.url))).toBe(true);
  }, 60_000);

  it('create-read-back fails against a server that answers 201 and loses the record', async () => {
    const report = await runAgainst({ forgetful: true, idInBody: true });
    const readBack = report.results.filter((r) => r.checkId === 'create-read-back');
    expect(readBack.map((r) => r.verdict)).toEqual(Array.from({ length: 2 + EDGE_ROUNDS }, () => 'failed'));
    expect(readBack[0]!.reason).toMatch(/getThing.*404|404.*getThing|not 200/);
  }, 60_000);
});
