/**
 * Four classes of false finding a sweep of published documents showed (2026-11-27: PagerDuty, Intercom, SendGrid),
 * each on a small correct server of a constructed document of the same shape, and each with a wrong server that
 * still fails:
 *
 * - A, a read that documents only a 201 (PagerDuty's `GET /incident_workflows/{id}`): its success is any 2xx it
 *   documents, not a hard-coded 200 (checks/support.ts readSucceeded).
 * - B, a sent value beside an answer member of another shape (Intercom's `options: [{value}]` answered as strings,
 *   `contacts: [{id}]` answered as an object) and a record answered as an array of records (SendGrid's
 *   `POST /v3/ips/warmup {ip}` answering `[{ip, start_date}]`): compare.ts answerHolds, compareInArray.
 * - C, an example's record key the request schema does not declare (SendGrid's `campaign_request` example
 *   `{id: 986724}`) left out, and the run's own key inside a one-member envelope (PagerDuty's
 *   `{incident_type: {name}}` read at `/incidents/types/{type_id_or_name}`): context.ts ownIdentity.
 * - D, two identical array answers called different by create-read-back's flicker test (readsFlicker).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';
import { readJsonBody, sendJson, sentJson, serveDocumented, type DocumentedServer } from './test-support/small-server.js';

function results(report: RunReport, check: string, operationId?: string): { verdict: string; reason: string }[] {
  return report.results.filter((r) => r.checkId === check && (operationId === undefined || r.operationId === operationId)).map((r) => ({ verdict: r.verdict, reason: r.reason ?? '' }));
}

function failures(report: RunReport, checks?: readonly string[]): string[] {
  return report.results.filter((r) => r.verdict === 'failed' && (!checks || checks.includes(r.checkId))).map((r) => `${r.checkId} ${r.operationId ?? ''} ${r.title}: ${r.reason ?? ''}`);
}

const ERROR = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } };
const json = (schema: unknown): unknown => ({ 'application/json': { schema } });

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

function route(handle: (method: string, path: string, body: unknown) => { status: number; body?: unknown; headers?: Record<string, string> }): Handler {
  return (req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = sentJson(req) ? await readJsonBody(req) : undefined;
      const out = handle(req.method ?? 'GET', decodeURIComponent(url.pathname), body);
      sendJson(res, out.status, out.body, out.headers);
    })();
  };
}

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

// ---- A: a read documenting only a 201 ----
const WORKFLOW = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string', readOnly: true }, name: { type: 'string', maxLength: 60 } } };
const workflowDocument = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Workflows', version: '1' },
  paths: {
    '/workflows': {
      post: {
        operationId: 'createWorkflow',
        requestBody: { required: true, content: json({ type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 60 } } }) },
        responses: {
          '201': { description: 'created', content: json(WORKFLOW), links: { GetWorkflow: { operationId: 'getWorkflow', parameters: { id: '$response.body#/id' } } } },
          '400': { description: 'invalid', content: json(ERROR) },
        },
      },
    },
    '/workflows/{id}': {
      get: {
        operationId: 'getWorkflow',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '201': { description: 'the workflow (as the document says)', content: json(WORKFLOW) }, '404': { description: 'none', content: json(ERROR) } },
      },
    },
  },
});
function workflowServer(keeps: boolean): Handler {
  const workflows = new Map<string, { id: string; name: string }>();
  return route((method, path, body) => {
    if (method === 'POST' && path === '/workflows') {
      const name = obj(body)['name'];
      if (typeof name !== 'string' || name.length > 60) return { status: 400, body: { message: 'invalid' } };
      const record = { id: `w${workflows.size + 1}`, name };
      workflows.set(record.id, record);
      return { status: 201, body: record };
    }
    const item = /^\/workflows\/([^/]+)$/.exec(path);
    if (method === 'GET' && item) {
      const record = workflows.get(item[1]!);
      return record ? { status: 201, body: keeps ? record : { ...record, name: 'renamed' } } : { status: 404, body: { message: 'none' } };
    }
    return { status: 404, body: { message: 'no route' } };
  });
}

// ---- B: answer members of another shape; a record answered as an array ----
const TICKET = {
  type: 'object',
  required: ['id', 'title'],
  properties: {
    id: { type: 'string' },
    title: { type: 'string' },
    contacts: { type: 'object', properties: { type: { type: 'string' }, contacts: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } } } },
    options: { type: 'array', items: { type: 'string' } },
  },
};
const ticketDocument = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Tickets', version: '1' },
  paths: {
    '/tickets': {
      post: {
        operationId: 'createTicket',
        requestBody: {
          required: true,
          content: json({
            type: 'object',
            required: ['title', 'contacts', 'options'],
            properties: {
              title: { type: 'string', maxLength: 60 },
              contacts: { type: 'array', minItems: 1, maxItems: 1, items: { type: 'object', required: ['id'], properties: { id: { type: 'string', maxLength: 20 } } } },
              options: { type: 'array', minItems: 1, maxItems: 1, items: { type: 'object', required: ['value'], properties: { value: { type: 'string', maxLength: 20 } } } },
            },
          }),
        },
        responses: {
          '201': { description: 'created', content: json(TICKET), links: { GetTicket: { operationId: 'getTicket', parameters: { id: '$response.body#/id' } } } },
          '400': { description: 'invalid', content: json(ERROR) },
        },
      },
    },
    '/tickets/{id}': {
      get: { operationId: 'getTicket', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'it', content: json(TICKET) }, '404': { description: 'none', content: json(ERROR) } } },
    },
  },
});
function ticketServer(keeps: boolean): Handler {
  const tickets = new Map<string, Record<string, unknown>>();
  let next = 1;
  return route((method, path, body) => {
    if (method === 'POST' && path === '/tickets') {
      const sent = obj(body);
      if (typeof sent['title'] !== 'string' || !Array.isArray(sent['contacts']) || !Array.isArray(sent['options'])) return { status: 400, body: { message: 'invalid' } };
      const options = (sent['options'] as unknown[]).map((o) => String(obj(o)['value']));
      const record = { id: `t${next++}`, title: keeps ? sent['title'] : 'lost', contacts: { type: 'contact.list', contacts: sent['contacts'] }, options };
      tickets.set(record.id, record);
      return { status: 201, body: record };
    }
    const item = /^\/tickets\/([^/]+)$/.exec(path);
    if (method === 'GET' && item) {
      const record = tickets.get(item[1]!);
      return record ? { status: 200, body: record } : { status: 404, body: { message: 'none' } };
    }
    return { status: 404, body: { message: 'no route' } };
  });
}

const WARMUP = { type: 'array', items: { type: 'object', required: ['ip', 'start_date'], properties: { ip: { type: 'string' }, start_date: { type: 'integer' } } } };
const warmupDocument = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Warmups', version: '1' },
  paths: {
    '/warmups': {
      post: {
        operationId: 'startWarmup',
        requestBody: { required: true, content: json({ type: 'object', required: ['ip'], properties: { ip: { type: 'string', maxLength: 60 } } }) },
        responses: {
          '201': { description: 'the IPs in warmup', content: json(WARMUP) },
          '400': { description: 'invalid', content: json(ERROR) },
        },
      },
    },
    '/warmups/{ip}': {
      get: {
        operationId: 'getWarmup',
        parameters: [{ name: 'ip', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'the IP in warmup, as an array', content: json(WARMUP) }, '404': { description: 'none', content: json(ERROR) } },
      },
    },
  },
});
/** Answers every IP in warmup (the sent one among them); `keeps: false` stores another IP than the one sent. */
function warmupServer(keeps: boolean): Handler {
  const ips: { ip: string; start_date: number }[] = [{ ip: '10.0.0.1', start_date: 1409616000 }];
  return route((method, path, body) => {
    if (method === 'POST' && path === '/warmups') {
      const ip = obj(body)['ip'];
      if (typeof ip !== 'string') return { status: 400, body: { message: 'invalid' } };
      ips.push({ ip: keeps ? ip : `${ip}-x`, start_date: 1409616000 + ips.length });
      return { status: 201, body: ips, headers: { location: `/warmups/${encodeURIComponent(ip)}` } };
    }
    const item = /^\/warmups\/([\s\S]+)$/.exec(path);
    if (method === 'GET' && item) {
      const found = ips.filter((entry) => entry.ip === item[1] || entry.ip === `${item[1]}-x`);
      return found.length > 0 ? { status: 200, body: found } : { status: 404, body: { message: 'none' } };
    }
    return { status: 404, body: { message: 'no route' } };
  });
}

// ---- C: an example's record key; a key inside a one-member envelope ----
const CAMPAIGN = { type: 'object', required: ['id', 'title'], properties: { id: { type: 'integer' }, title: { type: 'string' }, status: { type: 'string' } } };
const typeInner = { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 80 }, display_name: { type: 'string', maxLength: 80 } } };
const keyDocument = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Keys', version: '1' },
  paths: {
    '/campaigns': {
      post: {
        operationId: 'createCampaign',
        requestBody: {
          required: true,
          content: json({ type: 'object', required: ['title'], properties: { title: { type: 'string', maxLength: 100 }, status: { type: 'string', maxLength: 20 } }, example: { id: 986724, title: 'March Newsletter', status: 'Draft' } }),
        },
        responses: {
          '201': { description: 'created', content: json(CAMPAIGN), links: { GetCampaign: { operationId: 'getCampaign', parameters: { id: '$response.body#/id' } } } },
          '400': { description: 'invalid or already there', content: json(ERROR) },
        },
      },
    },
    '/campaigns/{id}': {
      get: { operationId: 'getCampaign', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }], responses: { '200': { description: 'it', content: json(CAMPAIGN) }, '404': { description: 'none', content: json(ERROR) } } },
    },
    '/types': {
      post: {
        operationId: 'createType',
        requestBody: {
          required: true,
          content: json({ type: 'object', required: ['incident_type'], properties: { incident_type: typeInner }, example: { incident_type: { name: 'fraud_incident', display_name: 'Fraud Incident' } } }),
        },
        responses: {
          '201': {
            description: 'created',
            content: json({ type: 'object', properties: { incident_type: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, display_name: { type: 'string' } } } } }),
            links: { GetType: { operationId: 'getType', parameters: { type_id_or_name: '$response.body#/incident_type/id' } } },
          },
          '400': { description: 'invalid or already there', content: json(ERROR) },
        },
      },
    },
    '/types/{type_id_or_name}': {
      get: {
        operationId: 'getType',
        parameters: [{ name: 'type_id_or_name', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { '200': { description: 'it', content: json({ type: 'object', properties: { incident_type: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' }, display_name: { type: 'string' } } } } }) }, '404': { description: 'none', content: json(ERROR) } },
      },
    },
  },
});
/** Takes a client's `id` (and a type's `name`) as the record's key and refuses one it holds with 400; `unique: false` never refuses and loses the title. */
function keyServer(keeps: boolean): Handler {
  const campaigns = new Map<number, Record<string, unknown>>();
  const types = new Map<string, Record<string, unknown>>();
  let next = 1;
  return route((method, path, body) => {
    const sent = obj(body);
    if (method === 'POST' && path === '/campaigns') {
      if (typeof sent['title'] !== 'string') return { status: 400, body: { message: 'invalid' } };
      const id = typeof sent['id'] === 'number' ? sent['id'] : next++;
      if (campaigns.has(id)) return { status: 400, body: { message: `campaign ${id} already exists` } };
      const record = { id, title: keeps ? sent['title'] : 'lost', ...(typeof sent['status'] === 'string' ? { status: sent['status'] } : {}) };
      campaigns.set(id, record);
      return { status: 201, body: record };
    }
    const campaign = /^\/campaigns\/([^/]+)$/.exec(path);
    if (method === 'GET' && campaign) {
      const record = campaigns.get(Number(campaign[1]));
      return record ? { status: 200, body: record } : { status: 404, body: { message: 'none' } };
    }
    if (method === 'POST' && path === '/types') {
      const inner = obj(sent['incident_type']);
      if (typeof inner['name'] !== 'string') return { status: 400, body: { message: 'invalid' } };
      if (types.has(inner['name'])) return { status: 400, body: { message: `type ${inner['name']} already exists` } };
      const record = { id: `T${next++}`, name: inner['name'], ...(typeof inner['display_name'] === 'string' ? { display_name: keeps ? inner['display_name'] : 'lost' } : {}) };
      types.set(record.name, record);
      return { status: 201, body: { incident_type: record } };
    }
    const type = /^\/types\/([^/]+)$/.exec(path);
    if (method === 'GET' && type) {
      const record = [...types.values()].find((t) => t['id'] === type[1] || t['name'] === type[1]);
      return record ? { status: 200, body: { incident_type: record } } : { status: 404, body: { message: 'none' } };
    }
    return { status: 404, body: { message: 'no route' } };
  });
}

// ---- D: a read answering the same array twice ----
const THING = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'string' }, name: { type: 'string', maxLength: 60 } } };
const thingDocument = JSON.stringify({
  openapi: '3.0.3',
  info: { title: 'Things', version: '1' },
  paths: {
    '/things': {
      post: {
        operationId: 'createThing',
        requestBody: { required: true, content: json({ type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 60 } } }) },
        responses: { '201': { description: 'created', content: json(THING), links: { GetThing: { operationId: 'getThing', parameters: { id: '$response.body#/id' } } } }, '400': { description: 'invalid', content: json(ERROR) } },
      },
    },
    '/things/{id}': {
      get: { operationId: 'getThing', parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'it', content: json(THING) }, '404': { description: 'none', content: json(ERROR) } } },
    },
  },
});
/** Reads a thing wrapped in an array (not what the document says), the same text every time. */
function thingServer(): Handler {
  const things = new Map<string, { id: string; name: string }>();
  return route((method, path, body) => {
    if (method === 'POST' && path === '/things') {
      const name = obj(body)['name'];
      if (typeof name !== 'string') return { status: 400, body: { message: 'invalid' } };
      const record = { id: `x${things.size + 1}`, name };
      things.set(record.id, record);
      return { status: 201, body: record };
    }
    const item = /^\/things\/([^/]+)$/.exec(path);
    if (method === 'GET' && item) {
      const record = things.get(item[1]!);
      return record ? { status: 200, body: [record] } : { status: 404, body: { message: 'none' } };
    }
    return { status: 404, body: { message: 'no route' } };
  });
}

const servers: Record<string, DocumentedServer> = {};
beforeAll(async () => {
  servers['workflows'] = await serveDocumented('workflows.json', workflowDocument, workflowServer(true));
  servers['workflowsWrong'] = await serveDocumented('workflows.json', workflowDocument, workflowServer(false));
  servers['tickets'] = await serveDocumented('tickets.json', ticketDocument, ticketServer(true));
  servers['ticketsWrong'] = await serveDocumented('tickets.json', ticketDocument, ticketServer(false));
  servers['warmups'] = await serveDocumented('warmups.json', warmupDocument, warmupServer(true));
  servers['warmupsWrong'] = await serveDocumented('warmups.json', warmupDocument, warmupServer(false));
  servers['keys'] = await serveDocumented('keys.json', keyDocument, keyServer(true));
  servers['keysWrong'] = await serveDocumented('keys.json', keyDocument, keyServer(false));
  servers['things'] = await serveDocumented('things.json', thingDocument, thingServer());
});
afterAll(async () => {
  await Promise.all(Object.values(servers).map((s) => s.close()));
});

const run = (name: string, only: string[]): Promise<RunReport> => runConformance({ baseUrl: servers[name]!.baseUrl, specPath: servers[name]!.specPath, seed: 5, only });

describe('A: a read that documents only a 201', () => {
  it('its 201 is its success: create-read-back, stable-reads and prototype-keys judge what it read', async () => {
    const report = await run('workflows', ['create-read-back', 'stable-reads', 'prototype-keys']);
    expect(failures(report)).toEqual([]);
    expect(results(report, 'create-read-back', 'createWorkflow').map((r) => r.verdict)).toContain('passed');
  }, 60_000);

  it('a server whose 201 read loses the name still fails', async () => {
    const report = await run('workflowsWrong', ['create-read-back']);
    expect(results(report, 'create-read-back', 'createWorkflow').some((r) => r.verdict === 'failed' && /name/.test(r.reason))).toBe(true);
  }, 60_000);
});

describe('B: an answer member of another shape than the value sent', () => {
  it('records sent where the answer lists texts, a list sent where the answer holds an object: not compared', async () => {
    const report = await run('tickets', ['create-read-back']);
    expect(failures(report)).toEqual([]);
    expect(results(report, 'create-read-back', 'createTicket').map((r) => r.verdict)).toContain('passed');
  }, 60_000);

  it('a server that loses the title still fails', async () => {
    const report = await run('ticketsWrong', ['create-read-back']);
    expect(results(report, 'create-read-back', 'createTicket').some((r) => r.verdict === 'failed' && /title/.test(r.reason))).toBe(true);
  }, 60_000);

  it('a record answered as an array of records: compared with the item that holds it', async () => {
    const report = await run('warmups', ['create-read-back']);
    expect(failures(report)).toEqual([]);
    expect(results(report, 'create-read-back', 'startWarmup').map((r) => r.verdict)).toContain('passed');
  }, 60_000);

  it('an array with no item holding what was sent is not a verdict: skipped with the reason', async () => {
    const report = await run('warmupsWrong', ['create-read-back']);
    const verdicts = results(report, 'create-read-back', 'startWarmup');
    expect(verdicts.length).toBeGreaterThan(0);
    expect(verdicts.filter((r) => r.verdict !== 'skipped')).toEqual([]);
    expect(verdicts.some((r) => /array of \d+ records, none holding what was sent/.test(r.reason))).toBe(true);
  }, 60_000);
});

describe("C: an example's record key, and a key in a one-member envelope", () => {
  it('every create is a record of its own: no example id repeated, the envelope key made the run own', async () => {
    const report = await run('keys', ['create-read-back', 'accepts-valid-bodies', 'accepts-json-charset']);
    expect(failures(report)).toEqual([]);
    const sent = report.results.flatMap((r) => (r.evidence ?? []).filter((e) => e.request.method === 'POST').map((e) => e.request.body ?? ''));
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.filter((body) => body.includes('986724'))).toEqual([]);
    expect(sent.filter((body) => body.includes('"fraud_incident"'))).toEqual([]);
  }, 60_000);

  it('a server that loses what was sent still fails', async () => {
    const report = await run('keysWrong', ['create-read-back']);
    expect(results(report, 'create-read-back', 'createCampaign').some((r) => r.verdict === 'failed')).toBe(true);
    expect(results(report, 'create-read-back', 'createType').some((r) => r.verdict === 'failed')).toBe(true);
  }, 60_000);
});

describe('D: the same array read twice', () => {
  it('is not two reads that differ; the read answering an array where the document says an object still fails create-read-back', async () => {
    const report = await run('things', ['create-read-back', 'stable-reads']);
    expect(results(report, 'stable-reads').map((r) => r.verdict)).not.toContain('failed');
    expect(results(report, 'create-read-back', 'createThing').some((r) => r.verdict === 'failed')).toBe(true);
  }, 60_000);
});
