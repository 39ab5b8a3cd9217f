/**
 * The generic engine's end-to-end test client: real requests with undici to a real mock of a foreign document,
 * and EVERY answer of a documented operation checked against that document before a test sees it (the status is
 * documented, its headers and body are valid). Then `roundTrips` drives every inferred resource through
 * create, read back, list, replace, partial update and delete, as a front end would.
 */
import { Agent, request, type Dispatcher } from 'undici';
import { Generator, sampleParameterText } from '../../../conformance/generate.js';
import type { Operation } from '../../../src/contract/index.js';
import { createRouter } from '../../../src/router.js';
import type { CompiledContract, Diagnostic } from '../../../src/schema/index.js';
import { ADMIN_HEADER } from '../../admin/access.js';
import { toExchange, type Exchange } from '../../test-support/contract-client.js';
import { parentOf, type Resource, type ResourceMap } from '../infer.js';
import { isObject, itemsOf, jsonMedia, propertiesOf } from '../schemas.js';
import { credentialsFor } from './credentials.js';

export type ForeignExchange = Exchange;

export class DocumentViolation extends Error {
  override readonly name = 'DocumentViolation';
  constructor(exchange: ForeignExchange, diagnostics: readonly Diagnostic[]) {
    super(`${exchange.method} ${exchange.target} answered ${exchange.status}, which breaks the document:\n${diagnostics.map((d) => `  ${d.pointer}: ${d.message}`).join('\n')}\n  body: ${exchange.text.slice(0, 400)}`);
  }
}

export interface ForeignClient {
  /** `plainNotFound`: a 404 is accepted where the operation documents none (issue 22: a plain Error where none is documented). */
  /** `text`: the body as JSON text, sent as it is (integers past 2^53 that JSON.stringify of a number cannot write). */
  send(method: string, path: string, options?: { json?: unknown; text?: string; headers?: Record<string, string>; query?: Record<string, string>; plainNotFound?: boolean }): Promise<ForeignExchange>;
  readonly checked: () => number;
  close(): Promise<void>;
}

/** A third party that judges each exchange too (Prism's validation proxy): what it objects to, or undefined. */
export type Referee = (exchange: ForeignExchange, expected: { readonly plainNotFound: boolean }) => string | undefined;

export class RefereeViolation extends Error {
  override readonly name = 'RefereeViolation';
}

/**
 * `basePath`: where the mock serves the document (`mock.app.basePath`); the paths a test sends are the document's,
 * below it. `via`: where the document's operations are sent (a proxy such as Prism's, in front of `origin` and its
 * base path, serving the document at its root); the
 * mock's own `/__mock/*` paths always go to `origin`, which no proxy of the document knows.
 */
export function createForeignClient(origin: string, compiled: CompiledContract, basePath = '', via?: { readonly origin: string; readonly referee: Referee }): ForeignClient {
  const dispatcher = new Agent({ connections: 8, keepAliveTimeout: 2_000 });
  const router = createRouter(compiled.contract, basePath);
  let checked = 0;
  return {
    async send(method, path, options = {}) {
      const own = path.startsWith('/__mock/');
      const match = own ? undefined : router.match(method, `${basePath}${path}`);
      // Through a referee that checks security (Prism), the credentials the operation's requirement asks for.
      const credentials = via && match?.kind === 'match' ? credentialsFor(compiled.contract, match.operation) : undefined;
      const params = { ...credentials?.query, ...options.query };
      const query = Object.keys(params).length > 0 ? `?${new URLSearchParams(params).toString()}` : '';
      const headers: Record<string, string> = { ...(path.startsWith('/__mock/') ? { [ADMIN_HEADER]: '1' } : {}), ...credentials?.headers, ...options.headers };
      if (options.json !== undefined || options.text !== undefined) headers['content-type'] ??= 'application/json';
      const target = path.startsWith('/__mock/') || via === undefined ? origin : via.origin;
      // A proxy of the document (Prism) serves it at its root and forwards to the mock under its base path.
      const response = await request(`${target}${own || via ? '' : basePath}${path}${query}`, {
        method: method as Dispatcher.HttpMethod,
        headers,
        ...(options.text !== undefined ? { body: options.text } : options.json !== undefined ? { body: JSON.stringify(options.json) } : {}),
        dispatcher,
        // Bounds a hang only: through Prism, beside the runner, on a shared 2-core machine, an answer took over 20 s.
        headersTimeout: 90_000,
        bodyTimeout: 90_000,
      });
      const exchange = toExchange(method, `${path}${query}`, response.statusCode, response.headers, await response.body.text());
      const objection = via && !path.startsWith('/__mock/') ? via.referee(exchange, { plainNotFound: options.plainNotFound === true }) : undefined;
      if (objection !== undefined) throw new RefereeViolation(objection);
      const lower = exchange.headers;
      const body = exchange.body;
      if (match?.kind === 'match') {
        const verdict = compiled.operations.get(match.operation.operationId)!.response(exchange.status, lower, method === 'HEAD' ? undefined : body);
        const problems = [...verdict.diagnostics];
        if (verdict.statusKey === undefined && options.plainNotFound && exchange.status === 404) problems.length = 0;
        else if (verdict.statusKey === undefined) problems.unshift({ pointer: '/status', keyword: 'status', message: `${exchange.status} is not documented for ${match.operation.operationId}` });
        if (problems.length > 0) throw new DocumentViolation(exchange, problems);
        checked += 1;
      }
      return exchange;
    },
    checked: () => checked,
    close: () => dispatcher.close(),
  };
}

/** One resource's round trip, and what it proved. */
export interface RoundTrip {
  readonly resource: string;
  readonly steps: readonly string[];
}

/** Fills an item path's parameters: the parents' ids, then the record's. */
function itemPathOf(resource: Resource, scope: Readonly<Record<string, string>>, id: string): string {
  let path = resource.itemPath;
  for (const [name, value] of Object.entries(scope)) path = path.replace(`{${name}}`, encodeURIComponent(value));
  return path.replace(`{${resource.idParam}}`, encodeURIComponent(id));
}

function collectionPathOf(resource: Resource, scope: Readonly<Record<string, string>>): string {
  let path = resource.collectionPath;
  for (const [name, value] of Object.entries(scope)) path = path.replace(`{${name}}`, encodeURIComponent(value));
  return path;
}

/**
 * Create (POST, PUT on the collection or on a fresh id where the document says so), read back, list, replace,
 * create-or-update, update, delete and read again (the document's 404) on every resource of the map, under one
 * session. Where records travel in an envelope (`{ Items: [...] }`), the bodies are envelopes (as the document
 * shapes them) and every answer must carry the record worked on. A nested resource works under
 * a parent id the mock already holds (read from the admin state). Throws on the first step that goes wrong.
 */
export async function roundTrips(client: ForeignClient, compiled: CompiledContract, map: ResourceMap, session = 'round-trips'): Promise<RoundTrip[]> {
  const { contract } = compiled;
  const generator = new Generator(7, 'rt', '', (operation, value) => compiled.operations.get(operation.operationId)!.body(value));
  const headers = { 'x-mock-session': session };
  const state = (await client.send('GET', '/__mock/state', { query: { session } })).body;
  const out: RoundTrip[] = [];
  // Nested resources before their parents (the keys sort a parent first): a parent's round trip may delete the very
  // record its children work under (one it read from the mock's data, having no create).
  for (const resource of [...map.resources].reverse()) {
    const steps: string[] = [];
    const scopeValues = firstScope(resource, map, state);
    if (scopeValues === undefined) {
      out.push({ resource: resource.key, steps: ['skipped: no parent record to work under'] });
      continue;
    }
    const scope = Object.fromEntries(resource.scopeParams.map((name, i) => [name, scopeValues[i]!]));
    const op = (role: keyof Resource['roles']): Operation | undefined => (resource.roles[role] ? contract.operationsById.get(resource.roles[role]!) : undefined);
    /**
     * Where records travel in an envelope (`{ Items: [...] }`) and the operation is sent it, an envelope of `count`
     * records sampled from the record schema: the document's own examples may not be one (Xero's say
     * `bankTransactions` where the schema says `BankTransactions`), and an empty `{}` is valid but carries none.
     */
    const envelopeFor = (operation: Operation, count: number): unknown => {
      const body = operation.requestBody ? jsonMedia(operation.requestBody.content)?.schema : undefined;
      const member = body && resource.batchKey ? propertiesOf(body).get(resource.batchKey) : undefined;
      const items = member ? itemsOf(member) : undefined;
      if (!items || !resource.batchKey) return undefined;
      for (let variant = 0; variant < 4; variant += 1) {
        const envelope = { [resource.batchKey]: Array.from({ length: count }, (_, i) => generator.sample(items, 1, variant + i)) };
        if (compiled.operations.get(operation.operationId)!.body(envelope).length === 0) return envelope;
      }
      return undefined;
    };
    const bodyFor = (operation: Operation, count = 1): unknown => envelopeFor(operation, count) ?? (operation.requestBody ? generator.validBody(operation, {}) : undefined);
    /** The session header, and a value for every required header and query parameter the operation takes. */
    const withRequired = (operation: Operation | undefined, json?: unknown): { headers: Record<string, string>; query?: Record<string, string>; json?: unknown } => {
      const out: { headers: Record<string, string>; query?: Record<string, string>; json?: unknown } = { headers: { ...headers } };
      for (const parameter of operation?.parameters ?? []) {
        if (!parameter.required || (parameter.in !== 'header' && parameter.in !== 'query')) continue;
        const text = sampleParameterText(parameter, generator);
        if (parameter.in === 'header') out.headers[parameter.name.toLowerCase()] = text;
        else (out.query ??= {})[parameter.name] = text;
      }
      if (json !== undefined) out.json = json;
      return out;
    };
    const fail = (step: string, exchange: ForeignExchange): never => {
      throw new Error(`${resource.key}: ${step} answered ${exchange.status}: ${exchange.text.slice(0, 300)}`);
    };

    /** The records an answer carries: in the array member they travel in, in the item envelope, or bare. */
    const recordsIn = (body: unknown): readonly unknown[] => {
      if (!isObject(body)) return [];
      if (resource.batchKey && Array.isArray(body[resource.batchKey])) return body[resource.batchKey] as unknown[];
      return [resource.itemEnvelope && isObject(body[resource.itemEnvelope]) ? body[resource.itemEnvelope] : body];
    };
    const idIn = (record: unknown): string | undefined => {
      const value = resource.idField && isObject(record) ? record[resource.idField] : undefined;
      return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
    };
    /**
     * A create body whose writable integer key names no record the mock holds: the sample is the schema's minimum,
     * which the initial data holds, and the mock rightly answers the create's 409 to it (as a front end choosing its
     * own keys would not send).
     */
    const freeKey = (operation: Operation, body: unknown): unknown => {
      if (resource.idKind !== 'integer' || !resource.idField || !isObject(body) || typeof body[resource.idField] !== 'number') return body;
      const free = { ...body, [resource.idField]: 987_654 };
      return compiled.operations.get(operation.operationId)!.body(free).length === 0 ? free : body;
    };
    /** A body for a write on the record `id`: its id field set in every record of an envelope (`{ Items: [...] }`). */
    const naming = (body: unknown, recordId: string): unknown => {
      if (!resource.batchKey || !resource.idField || !isObject(body) || !Array.isArray(body[resource.batchKey])) return body;
      const value = resource.idIsNumber ? Number(recordId) : recordId;
      return { ...body, [resource.batchKey]: (body[resource.batchKey] as unknown[]).map((record) => (isObject(record) ? { ...record, [resource.idField!]: value } : record)) };
    };

    let id: string | undefined;
    const create = op('create');
    const replace = op('replace');
    if (create) {
      // Two records where they travel in an envelope: one create makes both, the round trip works on the first.
      const body = freeKey(create, bodyFor(create, 2));
      if (create.requestBody?.required && body === undefined) {
        out.push({ resource: resource.key, steps: ['skipped: no valid create body could be built'] });
        continue;
      }
      // POST, or PUT where the document makes PUT on the collection the create (Xero's `createItems`).
      const created = await client.send(create.method.toUpperCase(), `${collectionPathOf(resource, scope)}`, withRequired(create, body));
      if (created.status >= 300) fail('create', created);
      const fromBody = idIn(recordsIn(created.body)[0]);
      // The Location's last segment is URI text (RFC 3986 §2.1): the id is what it encodes.
      const segment = created.headers['location']?.split('/').pop();
      const located = segment === undefined ? undefined : decodeURIComponent(segment);
      id = fromBody !== undefined ? fromBody : resource.suffix && located?.endsWith(resource.suffix) ? located.slice(0, -resource.suffix.length) : located;
      steps.push(create.method === 'put' ? 'create by PUT on the collection' : 'create');
    } else if (replace && resource.upsert) {
      // An id the item path accepts (a slug's or a composite key's pattern), far from the ids the mock hands out.
      const idParameter = replace.parameters.find((p) => p.in === 'path' && p.name === resource.idParam);
      id = resource.idKind === 'integer' ? '987654' : resource.idKind === 'uuid' ? '0e0e0e0e-0000-4000-8000-000000000001' : resource.idSchema && idParameter ? sampleParameterText(idParameter, generator) : 'round-trip-1';
      const body = bodyFor(replace);
      const created = await client.send('PUT', `${itemPathOf(resource, scope, id)}`, withRequired(replace, body));
      if (created.status >= 300) fail('create by PUT', created);
      steps.push('create by PUT');
    } else {
      // No way to make a record: read one the mock holds.
      const held = recordsOf(resource, state, scopeValues.join('/'));
      id = held === undefined ? undefined : String(held);
    }
    if (id === undefined) {
      out.push({ resource: resource.key, steps: [...steps, 'skipped: no id to read back'] });
      continue;
    }
    const item = `${itemPathOf(resource, scope, id)}`;
    /** Where records travel in an envelope, the answer must carry the record `id` names. */
    const carries = (step: string, exchange: ForeignExchange): void => {
      if (resource.batchKey && resource.idField && !recordsIn(exchange.body).some((record) => idIn(record) === id)) fail(`${step} (no record ${id} in .${resource.batchKey})`, exchange);
    };
    // An item path with no GET (Adyen's `PATCH /scaDevices/{deviceId}`) has nothing to read back through.
    if (resource.roles.read) {
      const read = await client.send('GET', item, withRequired(op('read')));
      if (read.status < 200 || read.status >= 300) fail('read back', read);
      carries('read back', read);
      steps.push('read');
    }
    if (resource.roles.list) {
      const listed = await client.send('GET', `${collectionPathOf(resource, scope)}`, withRequired(op('list')));
      if (listed.status < 200 || listed.status >= 300) fail('list', listed);
      carries('list', listed);
      steps.push('list');
    }
    if (replace) {
      const body = bodyFor(replace);
      if (!(replace.requestBody?.required && body === undefined)) {
        const replaced = await client.send('PUT', item, withRequired(replace, body));
        if (replaced.status >= 300) fail('replace', replaced);
        steps.push('replace');
      }
    }
    // The collection's create-or-update (Xero's `POST /Items`), sent the record's id: it updates that record.
    const createOrUpdate = op('createOrUpdate');
    if (createOrUpdate) {
      const body = bodyFor(createOrUpdate);
      if (!(createOrUpdate.requestBody?.required && body === undefined)) {
        const upserted = await client.send(createOrUpdate.method.toUpperCase(), `${collectionPathOf(resource, scope)}`, withRequired(createOrUpdate, naming(body, id)));
        if (upserted.status >= 300) fail('create or update', upserted);
        carries('create or update', upserted);
        steps.push('create or update');
      }
    }
    const update = op('update');
    if (update) {
      const body = bodyFor(update);
      if (!(update.requestBody?.required && body === undefined)) {
        // PATCH, or POST on the item where the document updates by POST (Xero's `POST /Items/{ItemID}`).
        const updated = await client.send(update.method.toUpperCase(), item, withRequired(update, naming(body, id)));
        if (updated.status >= 300) fail('update', updated);
        carries('update', updated);
        steps.push(update.method === 'patch' ? 'update' : `update by ${update.method.toUpperCase()}`);
      }
    }
    if (resource.roles.delete) {
      const deleted = await client.send('DELETE', item, withRequired(op('delete')));
      if (deleted.status >= 300) fail('delete', deleted);
      // Without an item GET, the deleted record shows as gone to a second DELETE.
      const again = resource.roles.read ? 'read' : 'delete';
      const gone = await client.send(resource.roles.read ? 'GET' : 'DELETE', item, { ...withRequired(op(again)), plainNotFound: true });
      if (gone.status !== 404) fail(`${again} after delete`, gone);
      steps.push('delete', `${again} after delete: 404`);
    }
    out.push({ resource: resource.key, steps });
  }
  return out;
}

/** The parent ids of the first record a nested resource's parent holds ([] for a top-level one). */
function firstScope(resource: Resource, map: ResourceMap, state: unknown): string[] | undefined {
  if (resource.scopeParams.length === 0) return [];
  const parent = parentOf(resource, map.resources);
  const scopes = parent && isObject(state) ? state[parent.key] : undefined;
  if (!parent || !isObject(scopes)) return undefined;
  for (const [scope, records] of Object.entries(scopes)) {
    const first = Array.isArray(records) ? (records[0] as unknown) : undefined;
    const id = isObject(first) && parent.idField ? first[parent.idField] : undefined;
    if (typeof id !== 'string' && typeof id !== 'number') continue;
    const ids = [...(scope === '' ? [] : scope.split('/')), String(id)];
    if (ids.length === resource.scopeParams.length) return ids;
  }
  return undefined;
}

function recordsOf(resource: Resource, state: unknown, scope: string): string | undefined {
  const scopes = isObject(state) ? state[resource.key] : undefined;
  const records = isObject(scopes) ? scopes[scope] : undefined;
  const first = Array.isArray(records) ? (records[0] as unknown) : undefined;
  if (!isObject(first)) return undefined;
  const value = resource.idField ? first[resource.idField] : undefined;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}
