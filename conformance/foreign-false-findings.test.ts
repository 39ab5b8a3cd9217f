/**
 * Issue 21, point 3: the runner's own mistakes are never the target's. A
 * small correct server of a constructed document that has each construct
 * the published documents showed the runner stumbling on:
 *
 * - a create whose answer says more than the reads (`allOf: [Thing, {receipt}]`):
 *   its reads are still the record's (read back, Location), and the receipt is
 *   not looked for where they do not declare it;
 * - the created record's id only inside `allOf` (the runner sent
 *   `/things/%7BthingId%7D` and `/things/undefined`);
 * - a list with a required query parameter (left out by list-after-create);
 * - a concrete path beside a template (`/things/public` and
 *   `/things/{thingId}`: `PATCH /things/public` is no wrong method);
 * - a documented 302 (taken for a transport problem);
 * - an answer with a body its response does not describe (no `content`: taken for a violation);
 * - a 415 to a body that is not JSON, where the operation lists only 400 (taken for an undocumented status);
 * - a 404 for an id the runner made up, where the operation lists only 200 (the same);
 * - a request budget too small for the run (reported as failures);
 * - 400 and 422 both documented, and a schema violation answered 422 (taken for the wrong status);
 * - an operation that documents no success answer at all, answered 200 (the classic Swagger Petstore's addPet
 *   lists only 405; taken for an undocumented status);
 * - a read whose path parameter takes fewer ids than the record's schema allows (its orderId 1 to 10, Order.id
 *   unbounded): the server's 400 to an id the read refuses was taken for a record not read back;
 * - a key the client chooses that the item path refuses (a tag named `Blue 2` where `/tags/{name}` takes
 *   lowercase letters): the clean-up sent the DELETE the document rules out and failed on its rightful 400;
 * - a record every answer wraps in one member (`{ "data": {...} }`, as ReadMe's API does): the clean-up took the
 *   wrapper for another record and left every one behind.
 *
 * Against it the runner reports no failure; with a tiny budget it reports
 * what it did not run as not run, never as failed.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { createServer, RequestListener } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_RUN_PREFIX } from './context.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';
import { listenOnLoopback, readJsonBody, sendJson } from './test-support/small-server.js';

const DOCUMENT = `openapi: 3.0.3
info: { title: Things, version: 1.0.0 }
paths:
  /things:
    get:
      operationId: listThings
      parameters:
        - { name: tenant, in: query, required: true, schema: { type: string, enum: [acme] } }
      responses:
        '200': { description: the things, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Thing' } } } } }
        '400': { $ref: '#/components/responses/Error' }
    post:
      operationId: createThing
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/NewThing' } } }
      responses:
        '201':
          description: created, with a receipt only this answer carries
          headers: { Location: { schema: { type: string } } }
          content: { application/json: { schema: { allOf: [ { $ref: '#/components/schemas/Thing' }, { type: object, properties: { receipt: { type: string } } } ] } } }
        '400': { $ref: '#/components/responses/Error' }
        '422': { $ref: '#/components/responses/Error' }
  /things/public:
    get:
      operationId: listPublicThings
      responses:
        '200': { description: the public things, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Thing' } } } } }
  /things/{thingId}:
    parameters:
      - { name: thingId, in: path, required: true, schema: { type: string } }
    get:
      operationId: getThing
      responses:
        '200': { description: the thing, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
        '404': { $ref: '#/components/responses/Error' }
    patch:
      operationId: updateThing
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/NewThing' } } }
      responses:
        '200': { description: the thing, content: { application/json: { schema: { $ref: '#/components/schemas/Thing' } } } }
        '400': { $ref: '#/components/responses/Error' }
        '404': { $ref: '#/components/responses/Error' }
    delete:
      operationId: deleteThing
      responses:
        '204': { description: deleted }
        '404': { $ref: '#/components/responses/Error' }
  /owners/{ownerId}/things:
    get:
      operationId: listOwnerThings
      description: lists only 200; an owner id that names no owner is a 404 all the same
      parameters:
        - { name: ownerId, in: path, required: true, schema: { type: string } }
      responses:
        '200': { description: the owner's things, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Thing' } } } } }
  /ping:
    get:
      operationId: ping
      responses:
        '200': { description: up; the document does not describe the body }
  /search:
    get:
      operationId: searchThings
      description: documents no error answer, as many published documents do
      parameters:
        - { name: q, in: query, required: true, schema: { type: string, minLength: 1, maxLength: 5 } }
      responses:
        '200': { description: the matches, content: { application/json: { schema: { type: array, items: { $ref: '#/components/schemas/Thing' } } } } }
  /tokens:
    post:
      operationId: createToken
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/NewThing' } } }
      responses:
        '201':
          description: created; this server never says which id it gave
          content: { application/json: { schema: { type: object, properties: { tokenId: { type: string, readOnly: true }, name: { type: string } } } } }
        '400': { $ref: '#/components/responses/Error' }
  /tokens/{tokenId}:
    parameters:
      - { name: tokenId, in: path, required: true, schema: { type: string } }
    delete:
      operationId: deleteToken
      responses:
        '204': { description: deleted }
        '404': { $ref: '#/components/responses/Error' }
  /reindex:
    post:
      operationId: reindex
      description: documents its refusal only, as the classic Swagger Petstore's addPet does
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/NewThing' } } }
      responses:
        '409': { $ref: '#/components/responses/Error' }
  /slots:
    post:
      operationId: createSlot
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/NewThing' } } }
      responses:
        '201':
          description: created
          headers: { Location: { schema: { type: string } } }
          content: { application/json: { schema: { $ref: '#/components/schemas/Slot' } } }
        '400': { $ref: '#/components/responses/Error' }
  /slots/{slotId}:
    parameters:
      - { name: slotId, in: path, required: true, description: only the first two slots can be read, schema: { type: integer, minimum: 1, maximum: 2 } }
    get:
      operationId: getSlot
      responses:
        '200': { description: the slot, content: { application/json: { schema: { $ref: '#/components/schemas/Slot' } } } }
        '400': { $ref: '#/components/responses/Error' }
        '404': { $ref: '#/components/responses/Error' }
    delete:
      operationId: deleteSlot
      responses:
        '204': { description: deleted }
        '400': { $ref: '#/components/responses/Error' }
        '404': { $ref: '#/components/responses/Error' }
  /tags:
    post:
      operationId: createTag
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/NewThing' } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/NewThing' } } } }
        '400': { $ref: '#/components/responses/Error' }
  /tags/{name}:
    parameters:
      - { name: name, in: path, required: true, schema: { type: string, pattern: '^[a-z]+$' } }
    delete:
      operationId: deleteTag
      responses:
        '204': { description: deleted }
        '400': { $ref: '#/components/responses/Error' }
        '404': { $ref: '#/components/responses/Error' }
  /notes:
    post:
      operationId: createNote
      requestBody:
        required: true
        content: { application/json: { schema: { $ref: '#/components/schemas/NewThing' } } }
      responses:
        '201': { description: created, content: { application/json: { schema: { $ref: '#/components/schemas/WrappedNote' } } } }
        '400': { $ref: '#/components/responses/Error' }
  /notes/{noteId}:
    parameters:
      - { name: noteId, in: path, required: true, schema: { type: string } }
    get:
      operationId: getNote
      responses:
        '200': { description: the note, content: { application/json: { schema: { $ref: '#/components/schemas/WrappedNote' } } } }
        '404': { $ref: '#/components/responses/Error' }
    delete:
      operationId: deleteNote
      responses:
        '204': { description: deleted }
        '404': { $ref: '#/components/responses/Error' }
  /download:
    get:
      operationId: download
      responses:
        '302': { description: to where the file is, headers: { Location: { schema: { type: string } } } }
components:
  responses:
    Error: { description: an error, content: { application/json: { schema: { type: object, required: [message], properties: { message: { type: string } } } } } }
  schemas:
    NewThing:
      type: object
      required: [name]
      properties:
        name: { type: string, minLength: 1, maxLength: 80 }
    WrappedNote:
      type: object
      required: [data]
      properties: { data: { type: object, required: [noteId, name], properties: { noteId: { type: string, readOnly: true }, name: { type: string } } } }
    Slot:
      type: object
      required: [slotId, name]
      properties: { slotId: { type: integer, readOnly: true }, name: { type: string } }
    Thing:
      allOf:
        - type: object
          required: [thingId]
          # updatedAt is the server's to move on every change, though not marked readOnly (as in Adyen's documents).
          properties: { thingId: { type: string, readOnly: true }, updatedAt: { type: string, format: date-time } }
        - $ref: '#/components/schemas/NewThing'
`;

type Thing = { thingId: string; name: string; updatedAt: string };
/** Every request line the server received, the run's clean-up included. */
const requested: string[] = [];

/** A correct server of the document: things in a Map, every error as {message}. */
function thingsHandler(): RequestListener {
  const things = new Map<string, Thing>();
  let next = 1;
  // Slots are numbered on; the document lets only slots 1 and 2 be read or deleted, and the server holds to it.
  const slots = new Map<number, { slotId: number; name: string }>();
  const notes = new Map<string, { noteId: string; name: string }>();
  const tags = new Set<string>();
  let nextSlot = 1;
  // A clock that moves a second on every change, so an update time always differs from the one before it.
  let changes = 0;
  const stamp = (): string => new Date(Date.UTC(2026, 0, 1) + ++changes * 1000).toISOString();
  const validName = (body: unknown): body is { name: string } => {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
    const name = (body as Record<string, unknown>)['name'];
    return typeof name === 'string' && name.length >= 1 && [...name].length <= 80;
  };
  return async (req, res) => {
    requested.push(`${req.method ?? 'GET'} ${req.url ?? '/'}`);
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    // The document declares the 200 without `content`: that leaves its body undescribed, not forbidden (OpenAPI 3.0.3 §4.7.17).
    if (path === '/ping') return method === 'GET' ? sendJson(res, 200, { pong: true }) : sendJson(res, 405, { message: 'not allowed' }, { allow: 'GET' });
    // No owner exists: every owner id names nothing (RFC 9110 §15.5.5), though the operation lists only 200.
    if (/^\/owners\/[^/]+\/things$/.test(path)) return method === 'GET' ? sendJson(res, 404, { message: 'no such owner' }) : sendJson(res, 405, { message: 'not allowed' }, { allow: 'GET' });
    if (path === '/search') {
      if (method !== 'GET') return sendJson(res, 405, { message: 'not allowed' }, { allow: 'GET' });
      const q = url.searchParams.get('q') ?? '';
      return q.length >= 1 && q.length <= 5 ? sendJson(res, 200, [...things.values()].filter((t) => t.name.includes(q))) : sendJson(res, 400, { message: 'q must be 1 to 5 characters' });
    }
    if (path === '/tokens') {
      if (method !== 'POST') return sendJson(res, 405, { message: 'not allowed' }, { allow: 'POST' });
      // 415 for a body that is not JSON (RFC 9110 §15.5.16), though this operation lists only 201 and 400: responses need not be exhaustive.
      if (!/^application\/json/i.test(req.headers['content-type'] ?? '')) return sendJson(res, 415, { message: 'a JSON body is required' });
      const body = await readJsonBody(req);
      return validName(body) ? sendJson(res, 201, { name: body.name }) : sendJson(res, 400, { message: 'a name of 1 to 80 characters is required' });
    }
    if (path.startsWith('/tokens/')) return method === 'DELETE' ? sendJson(res, 404, { message: 'no such token' }) : sendJson(res, 405, { message: 'not allowed' }, { allow: 'DELETE' });
    if (path === '/things') {
      if (method === 'GET') return url.searchParams.get('tenant') === 'acme' ? sendJson(res, 200, [...things.values()]) : sendJson(res, 400, { message: 'tenant must be acme' });
      if (method === 'POST') {
        // A body that is not labelled JSON is refused with the documented 400 (this document documents no 415).
        if (!/^application\/json/i.test(req.headers['content-type'] ?? '')) return sendJson(res, 400, { message: 'a JSON body is required' });
        const body = await readJsonBody(req);
        // Well-formed JSON that breaks the schema is 422 here (RFC 9110 §15.5.21), as many APIs answer; malformed JSON is 400.
        if (body === undefined) return sendJson(res, 400, { message: 'the body is not JSON' });
        if (!validName(body)) return sendJson(res, 422, { message: 'a name of 1 to 80 characters is required' });
        const thing = { thingId: `t${next++}`, name: body.name, updatedAt: stamp() };
        things.set(thing.thingId, thing);
        return sendJson(res, 201, { ...thing, receipt: `r-${thing.thingId}` }, { location: `/things/${thing.thingId}` });
      }
      return sendJson(res, 405, { message: 'not allowed' }, { allow: 'GET, POST' });
    }
    if (path === '/download') return method === 'GET' ? sendJson(res, 302, { to: '/things?tenant=acme' }, { location: '/things?tenant=acme' }) : sendJson(res, 405, { message: 'not allowed' }, { allow: 'GET' });
    if (path === '/things/public' && method === 'GET') return sendJson(res, 200, []);
    // Success is a 200 with a receipt: the document lists only the 409, and says nothing of what success looks like.
    if (path === '/reindex') {
      if (method !== 'POST') return sendJson(res, 405, { message: 'not allowed' }, { allow: 'POST' });
      if (!/^application\/json/i.test(req.headers['content-type'] ?? '')) return sendJson(res, 400, { message: 'a JSON body is required' });
      return validName(await readJsonBody(req)) ? sendJson(res, 200, { reindexed: things.size }) : sendJson(res, 400, { message: 'a name of 1 to 80 characters is required' });
    }
    if (path === '/slots') {
      if (method !== 'POST') return sendJson(res, 405, { message: 'not allowed' }, { allow: 'POST' });
      if (!/^application\/json/i.test(req.headers['content-type'] ?? '')) return sendJson(res, 400, { message: 'a JSON body is required' });
      const body = await readJsonBody(req);
      if (!validName(body)) return sendJson(res, 400, { message: 'a name of 1 to 80 characters is required' });
      const slot = { slotId: nextSlot++, name: body.name };
      slots.set(slot.slotId, slot);
      return sendJson(res, 201, slot, { location: `/slots/${slot.slotId}` });
    }
    if (path === '/tags') {
      if (method !== 'POST') return sendJson(res, 405, { message: 'not allowed' }, { allow: 'POST' });
      if (!/^application\/json/i.test(req.headers['content-type'] ?? '')) return sendJson(res, 400, { message: 'a JSON body is required' });
      const body = await readJsonBody(req);
      if (!validName(body)) return sendJson(res, 400, { message: 'a name of 1 to 80 characters is required' });
      tags.add(body.name);
      return sendJson(res, 201, { name: body.name });
    }
    const tagMatch = /^\/tags\/([^/]+)$/.exec(path);
    if (tagMatch) {
      if (method !== 'DELETE') return sendJson(res, 405, { message: 'not allowed' }, { allow: 'DELETE' });
      // The document's own parameter: lowercase letters only, whatever name the tag was created with.
      const name = decodeURIComponent(tagMatch[1]!);
      if (!/^[a-z]+$/.test(name)) return sendJson(res, 400, { message: 'a tag name is lowercase letters' });
      return tags.delete(name) ? sendJson(res, 204) : sendJson(res, 404, { message: `no tag ${name}` });
    }
    if (path === '/notes') {
      if (method !== 'POST') return sendJson(res, 405, { message: 'not allowed' }, { allow: 'POST' });
      if (!/^application\/json/i.test(req.headers['content-type'] ?? '')) return sendJson(res, 400, { message: 'a JSON body is required' });
      const body = await readJsonBody(req);
      if (!validName(body)) return sendJson(res, 400, { message: 'a name of 1 to 80 characters is required' });
      const note = { noteId: `n${notes.size + 1}-${next++}`, name: body.name };
      notes.set(note.noteId, note);
      return sendJson(res, 201, { data: note });
    }
    const noteMatch = /^\/notes\/([^/]+)$/.exec(path);
    if (noteMatch) {
      const note = notes.get(decodeURIComponent(noteMatch[1]!));
      if (method === 'GET') return note ? sendJson(res, 200, { data: note }) : sendJson(res, 404, { message: 'no such note' });
      if (method !== 'DELETE') return sendJson(res, 405, { message: 'not allowed' }, { allow: 'GET, DELETE' });
      if (!note) return sendJson(res, 404, { message: 'no such note' });
      notes.delete(note.noteId);
      return sendJson(res, 204);
    }
    const slotMatch = /^\/slots\/([^/]+)$/.exec(path);
    if (slotMatch) {
      if (method !== 'GET' && method !== 'DELETE') return sendJson(res, 405, { message: 'not allowed' }, { allow: 'GET, DELETE' });
      const id = Number(decodeURIComponent(slotMatch[1]!));
      if (!Number.isInteger(id) || id < 1 || id > 2) return sendJson(res, 400, { message: 'slotId must be 1 or 2' });
      const slot = slots.get(id);
      if (!slot) return sendJson(res, 404, { message: `no slot ${id}` });
      if (method === 'GET') return sendJson(res, 200, slot);
      slots.delete(id);
      return sendJson(res, 204);
    }
    const match = /^\/things\/([^/]+)$/.exec(path);
    if (match) {
      const id = decodeURIComponent(match[1]!);
      const thing = things.get(id);
      if (method === 'GET') return thing ? sendJson(res, 200, thing) : sendJson(res, 404, { message: `no thing ${id}` });
      if (method === 'DELETE') {
        if (!thing) return sendJson(res, 404, { message: `no thing ${id}` });
        things.delete(id);
        return sendJson(res, 204);
      }
      if (method === 'PATCH') {
        // A body that is not labelled JSON is refused with the documented 400 (this document documents no 415).
        if (!/^application\/json/i.test(req.headers['content-type'] ?? '')) return sendJson(res, 400, { message: 'a JSON body is required' });
        const body = await readJsonBody(req);
        if (!validName(body)) return sendJson(res, 400, { message: 'a name of 1 to 80 characters is required' });
        if (!thing) return sendJson(res, 404, { message: `no thing ${id}` });
        const updated = { ...thing, name: body.name, updatedAt: stamp() };
        things.set(id, updated);
        return sendJson(res, 200, updated);
      }
      return sendJson(res, 405, { message: 'not allowed' }, { allow: 'GET, PATCH, DELETE' });
    }
    return sendJson(res, 404, { message: `no route ${path}` });
  };
}

describe('a correct server of a document with the constructs that fooled the runner', () => {
  let dir: string;
  let spec: string;
  let server: ReturnType<typeof createServer>;
  let baseUrl: string;
  let report: RunReport;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'foreign-false-findings-'));
    spec = join(dir, 'things.yaml');
    await writeFile(spec, DOCUMENT);
    ({ server, baseUrl } = await listenOnLoopback(thingsHandler()));
    report = await runConformance({ baseUrl, specPath: spec, seed: 3 });
  }, 120_000);
  afterAll(async () => {
    server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('reports no failure', () => {
    const failed = report.results.filter((r) => r.verdict === 'failed');
    expect(failed.map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`)).toEqual([]);
    expect(report.summary.passed).toBeGreaterThan(10);
  });

  it('never sends an unfilled template or undefined as an id, its clean-up included', () => {
    const urls = report.results.flatMap((r) => r.evidence.map((x) => x.request.url));
    expect(urls.filter((u) => /%7B|\{|undefined/.test(u))).toEqual([]);
    expect(requested.filter((line) => /%7B|\{|undefined/i.test(line))).toEqual([]);
    expect(requested.some((line) => line.startsWith('POST /tokens'))).toBe(true);
    // A record whose id never came back is listed as left behind, with why, not deleted at a made-up URL.
    expect(report.cleanup.leftBehind.filter((left) => left.resource.startsWith('createToken')).map((left) => left.reason)).toContainEqual(expect.stringMatching(/needs tokenId, and the answer to createToken did not give it/));
  });

  it('a PATCH that moves the record\'s update time (updatedAt, date-time) keeps every other field: no patch-keeps-fields failure', () => {
    const patched = report.results.filter((r) => r.checkId === 'patch-keeps-fields');
    expect(patched.map((r) => r.verdict)).toContain('passed');
    expect(patched.filter((r) => r.verdict === 'failed')).toEqual([]);
  });

  it('finds the created id inside allOf and reads the record back', () => {
    expect(report.results.some((r) => r.checkId === 'create-read-back' && r.verdict === 'passed')).toBe(true);
  });

  it('does not probe PATCH /things/public as a wrong method (PATCH /things/{thingId} serves that URL)', () => {
    const probes = report.results.filter((r) => r.checkId === 'method-not-allowed-405');
    expect(probes.flatMap((r) => r.evidence).filter((x) => x.request.method === 'PATCH' && x.request.url.endsWith('/things/public'))).toEqual([]);
  });

  it('an operation that documents no error answer: its 400 to an invalid query is no status-documented failure, and a warning says why', () => {
    // The run sent an invalid q (empty, or longer than 5), which this server refuses with 400.
    expect(requested.some((line) => /^GET \/search\?q=(&|$|[^&]{6,})/.test(line))).toBe(true);
    expect(report.results.filter((r) => r.operationId === 'searchThings' && r.verdict === 'failed')).toEqual([]);
    expect((report.warnings ?? []).map((w) => w.message)).toContainEqual(expect.stringMatching(/^1 operation documents no 4xx answer .*: searchThings$/));
  });

  it('an operation that documents no success answer: its 200 is no status-documented failure, and a warning says why', () => {
    expect(requested.some((line) => line.startsWith('POST /reindex'))).toBe(true);
    const archived = report.results.filter((r) => r.operationId === 'reindex');
    expect(archived.filter((r) => r.verdict === 'failed')).toEqual([]);
    expect(archived.some((r) => r.verdict === 'passed')).toBe(true);
    expect((report.warnings ?? []).map((w) => w.message)).toContainEqual(expect.stringMatching(/^1 operation documents no success answer .*: reindex$/));
  });

  it('a created id the read\'s own path parameter refuses (slot 3 of 1 to 2) is not followed: the read-back cannot conclude, and fails nothing', () => {
    const slotCases = report.results.filter((r) => r.operationId === 'createSlot' || r.operationId === 'getSlot' || r.operationId === 'deleteSlot');
    expect(slotCases.filter((r) => r.verdict === 'failed')).toEqual([]);
    // Slots 1 and 2 are read (through the first creates' Location); later ones are never asked for, and say why.
    expect(requested.some((line) => /^GET \/slots\/[12]$/.test(line))).toBe(true);
    expect(report.results.some((r) => r.verdict === 'skipped' && /getSlot does not take \/path\/slotId \(must be <= 2\): the document itself rules that request out/.test(r.reason ?? ''))).toBe(true);
    // Only the checks that send invalid ids on purpose (negative-parameters: 3 is above the maximum) ask for slot 3 or later.
    const followed = report.results.filter((r) => r.checkId !== 'negative-parameters' && r.evidence.some((x) => x.request.method === 'GET' && /\/slots\/([3-9]|\d\d)$/.test(x.request.url)));
    expect(followed.map((r) => r.checkId)).toEqual([]);
  });

  it('a created key the delete\'s own path parameter refuses is left behind with why, never sent', () => {
    expect(requested.some((line) => line.startsWith('POST /tags'))).toBe(true);
    const left = report.cleanup.leftBehind.filter((entry) => entry.resource.startsWith('createTag'));
    expect(left.length).toBeGreaterThan(0);
    expect(left.map((entry) => entry.reason)).toContainEqual(expect.stringMatching(/^not deleted: deleteTag does not take \/path\/name \(must match pattern "\^\[a-z\]\+\$"\): the document itself rules that request out$/));
    expect(requested.filter((line) => line.startsWith('DELETE /tags/') && !/^DELETE \/tags\/[a-z]+$/.test(line))).toEqual([]);
  });

  it('a record wrapped in one member (`{ "data": {...} }`) is recognised as the run\'s own by the clean-up, and deleted', () => {
    expect(requested.filter((line) => line.startsWith('POST /notes')).length).toBeGreaterThan(0);
    expect(report.cleanup.leftBehind.filter((left) => left.resource.startsWith('createNote'))).toEqual([]);
    expect(requested.some((line) => /^DELETE \/notes\/n/.test(line))).toBe(true);
  });

  it('an answer with a body the document leaves undescribed (no `content`) breaks nothing', () => {
    expect(requested.some((line) => line.startsWith('GET /ping'))).toBe(true);
    expect(report.results.filter((r) => r.operationId === 'ping' && r.verdict === 'failed')).toEqual([]);
  });

  it('a refusal of an invalid request with a status the operation does not list (415) is judged by the check that sent it, not blamed as undocumented', () => {
    expect(requested.some((line) => line.startsWith('POST /tokens'))).toBe(true);
    const tokens = report.results.filter((r) => r.operationId === 'createToken');
    expect(tokens.filter((r) => r.verdict === 'failed')).toEqual([]);
    expect(tokens.some((r) => r.checkId === 'unsupported-media-type' && r.verdict === 'passed')).toBe(true);
  });

  it('a 404 for an id the runner made up is no undocumented status, though the operation lists only 200', () => {
    expect(requested.some((line) => /^GET \/owners\/[^/]+\/things/.test(line))).toBe(true);
    expect(report.results.filter((r) => r.operationId === 'listOwnerThings' && r.checkId === 'status-documented' && r.verdict === 'failed')).toEqual([]);
  });

  it('takes the documented 302 as an answer', () => {
    const download = report.results.filter((r) => r.operationId === 'download');
    expect(download.filter((r) => r.verdict === 'failed')).toEqual([]);
    expect(download.some((r) => r.verdict === 'passed')).toBe(true);
  });

  it('with a budget of 40 requests: what was not sent is "not run", never failed', async () => {
    const small = await runConformance({ baseUrl, specPath: spec, seed: 3, maxRequests: 40 });
    expect(small.results.filter((r) => r.verdict === 'failed' && /REQUEST_BUDGET/.test(r.reason ?? ''))).toEqual([]);
    expect(small.results.filter((r) => r.verdict === 'failed')).toEqual([]);
    expect(small.results.some((r) => r.verdict === 'skipped' && r.reason?.startsWith(NOT_RUN_PREFIX))).toBe(true);
  }, 120_000);
});
