/**
 * The `/__mock/` control plane for a foreign document: the same endpoints as the Pet Store's (admin.ts), over the
 * generic stores, plus the resource map the engine inferred:
 *
 *   POST /__mock/reset[?session=NAME]   back to the initial data
 *   GET  /__mock/state[?session=NAME]   `{ "<collection path>": { "<scope>": [records] } }`, or the overlay's shape
 *   PUT  /__mock/state[?session=NAME]   replace it with such a JSON (every record checked against its schema, no id
 *                                       twice in a scope, and what the stated rules keep true, each record read with
 *                                       its documented defaults: behaviour/held-state.ts; in the overlay's shape, its
 *                                       counters too: state-shape.ts), then completed by the behaviour's `load` hook
 *   GET  /__mock/health                 the document's title, version and hash, and the kit's version
 *   GET  /__mock/resources              what was inferred (report.ts), and how to correct it
 *
 * Who may call it is admin-access.ts's business, exactly as for the Pet Store.
 */
import type { ProofState } from '../engine/proof-sweep.js';
import type { CompiledContract, Diagnostic } from '../../src/schema/index.js';
import type { Admin, AdminAnswer } from './admin.js';
import { createAdminAccess, type AdminAccessSettings } from './access.js';
import { readJsonBody } from '../transport/body.js';
import type { ErrorFactory } from '../engine/errors.js';
import type { MockRequest } from '../engine/message.js';
import { readSession } from '../conveniences/session.js';
import { IMPORT_MAX_DEPTH, importLimitFor } from './import-bounds.js';
import { loadHookProblem, pointer, wholeStateProblems, withDefaults } from '../behaviour/held-state.js';
import { loadRefusalOf, type LoadSource } from '../behaviour/hooks.js';
import type { Rule } from '../behaviour/rules.js';
import type { Resource, ResourceMap } from '../engine/infer.js';
import { describeResources } from '../engine/report.js';
import { isObject } from '../engine/schemas.js';
import { exportShaped, importShaped, type StateShape } from '../engine/state-shape.js';
import type { GenericRegistry, GenericState, StoredRecord } from '../engine/store.js';

/** Records checked against their schema per import before the first problems are reported. */
const PROBLEMS_SHOWN = 5;

export interface GenericAdminOptions {
  readonly compiled: CompiledContract;
  readonly resources: ResourceMap;
  readonly registry: GenericRegistry;
  readonly errors: ErrorFactory;
  readonly kitVersion: string;
  readonly access?: AdminAccessSettings;
  readonly idOf: (resource: string, record: StoredRecord, index: number) => string;
  /** How far the proof of every documented answer has gone, and what cannot be made (proof-sweep.ts). */
  readonly proofs?: () => ProofState;
  /** The stated rules in force (behaviour/rules.ts describeRule). */
  readonly rules?: readonly object[];
  /** The shape a state is exported and imported in, where the overlay names one (state-shape.ts). */
  readonly shape?: StateShape;
  /** The stated rules an import is held to, in whichever shape (behaviour/held-state.ts). */
  readonly stated?: readonly Rule[];
  /** A behaviour module's `load` hook: completes an imported state before a store holds it (run-hooks.ts loadHook). */
  readonly complete?: (state: GenericState, source: LoadSource) => GenericState;
}

export function createGenericAdmin(options: GenericAdminOptions): Admin {
  const { compiled, resources, registry, errors } = options;
  const { contract } = compiled;
  const refusal = createAdminAccess(options.access);
  const guard = (request: MockRequest): AdminAnswer | undefined => {
    const refused = refusal(request.method, request.headers);
    return refused ? { status: refused.status, body: { code: refused.code, message: refused.message, status: refused.status } } : undefined;
  };
  const byKey = new Map(resources.resources.map((r) => [r.key, r]));

  /** An imported state: known collections, arrays of objects, each valid for its record schema. */
  const check = (value: unknown): Diagnostic[] => {
    const problems: Diagnostic[] = [];
    if (!isObject(value)) return [{ pointer: '/body', keyword: 'type', message: 'must be an object of collection path → scope → records, as GET /__mock/state exports it' }];
    for (const [key, scopes] of Object.entries(value)) {
      const resource = byKey.get(key);
      const at = `/body/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (!resource) problems.push({ pointer: at, keyword: 'additionalProperties', message: `is not a collection of this document; they are ${[...byKey.keys()].join(', ')}` });
      else if (!isObject(scopes)) problems.push({ pointer: at, keyword: 'type', message: 'must be an object of scope → records' });
      else {
        for (const [scope, records] of Object.entries(scopes)) {
          if (!Array.isArray(records)) problems.push({ pointer: `${at}/${scope}`, keyword: 'type', message: 'must be an array of records' });
          else {
            // No id twice in a scope, as an import in the overlay's shape (state-shape.ts): the store would keep one of them.
            const ids = new Map<string, number>();
            records.forEach((record: unknown, index) => {
              if (problems.length >= PROBLEMS_SHOWN) return;
              const here = `${at}/${pointer(scope)}/${index}`;
              if (!isObject(record)) return void problems.push({ pointer: here, keyword: 'type', message: 'must be an object' });
              if (resource.recordSchema) for (const d of compiled.validate(resource.recordSchema, record, 'response', here)) problems.push(d);
              const id = resource.idField === undefined ? undefined : record[resource.idField];
              if (typeof id !== 'string' && typeof id !== 'number') return;
              const earlier = ids.get(String(id));
              if (earlier === undefined) ids.set(String(id), index);
              else problems.push({ pointer: `${here}/${pointer(resource.idField!)}`, keyword: 'uniqueItems', message: `${String(id)} is the id of ${at}/${pointer(scope)}/${earlier} already` });
            });
          }
        }
      }
      if (problems.length >= PROBLEMS_SHOWN) break;
    }
    return problems.slice(0, PROBLEMS_SHOWN);
  };

  /**
   * The state completed by the behaviour's `load` hook, or the 500 its throw is answered with (nothing changed). So is
   * a state the hook leaves breaking a stated rule, among the collections `checked` (held to the rules before it ran,
   * so what breaks one now is what the hook wrote or removed): the hook's mistake, as a throw is.
   */
  const completed = (state: GenericState, checked: Iterable<string>, placeOf: (resource: Resource, scope: string, id: string) => string | undefined): { readonly state: GenericState } | { readonly refused: AdminAnswer } => {
    if (!options.complete) return { state };
    let done: GenericState;
    try {
      done = options.complete(state, 'import');
    } catch (error) {
      // A refusal (the hook's context.refuse) names a record: a 400 pointing at it in the body, as the rules' refusals do.
      const refusal = loadRefusalOf(error);
      const resource = refusal ? resources.resources.find((r) => r.collectionPath === refusal.place.collection) : undefined;
      const at = refusal && resource ? placeOf(resource, refusal.place.scope ?? '', String(refusal.place.id)) : undefined;
      if (refusal && at !== undefined) {
        const field = refusal.place.field === undefined ? '' : `/${pointer(refusal.place.field)}`;
        return { refused: errors.validationFailed([{ pointer: `${at}${field}`, keyword: 'load', message: refusal.message }]) };
      }
      return { refused: errors.error('INTERNAL_ERROR', `${(error as Error).message}; nothing was changed.`) };
    }
    const problem = loadHookProblem(done, checked, options.stated ?? [], 'the behaviour module');
    return problem ? { refused: errors.error('INTERNAL_ERROR', `${problem.message}; nothing was changed.`) } : { state: done };
  };
  const importShapedState = (shape: StateShape, value: unknown, name: string | undefined): AdminAnswer => {
    const verdict = importShaped(shape, value, compiled, options.stated ?? [], registry.get(name));
    if (!verdict.ok) return errors.validationFailed(verdict.diagnostics);
    // A record's place in the body: its member and its place in the list sent (the store may hold them in another order).
    const placeOf = (resource: Resource, _scope: string, id: string): string | undefined => {
      const member = shape.members.find((m) => m.resource === resource);
      const records = member && isObject(value) ? (value as Record<string, unknown>)[member.name] : undefined;
      const index = Array.isArray(records) && resource.idField !== undefined ? records.findIndex((record) => isObject(record) && String(record[resource.idField!]) === id) : -1;
      return member && index >= 0 ? `/body/${pointer(member.name)}/${index}` : undefined;
    };
    const done = completed(verdict.state, shape.members.map((member) => member.resource.key), placeOf);
    if ('refused' in done) return done.refused;
    const refusal = registry.load(done.state, name, verdict.floors);
    if (refusal !== undefined) return errors.error('VALIDATION_FAILED', refusal);
    return { status: 200, body: { loaded: verdict.loaded, ...(name === undefined ? {} : { session: name }) } };
  };

  const importState = (request: MockRequest, name: string | undefined): AdminAnswer => {
    const parsed = readJsonBody(request.body, request.headers, true, IMPORT_MAX_DEPTH);
    if (!parsed.ok) return errors.error(parsed.code, parsed.message);
    if (options.shape) return importShapedState(options.shape, parsed.value, name);
    const problems = check(parsed.value);
    if (problems.length > 0) return errors.validationFailed(problems);
    // Each record as the mock will hold it (a field it leaves out at its documented default), then held to the stated
    // rules as an import in the overlay's shape is: a reference that restricts or cascades names a record of the import,
    // nothing unique twice, no state a record cannot reach (held-state.ts). The import is the whole state: a collection
    // it leaves out is empty after it, and read so.
    const given: Record<string, Record<string, readonly StoredRecord[]>> = {};
    for (const key of byKey.keys()) given[key] = {};
    for (const [key, scopes] of Object.entries(parsed.value as GenericState)) {
      given[key] = {};
      for (const [scope, records] of Object.entries(scopes)) given[key][scope] = withDefaults(records, byKey.get(key)!.recordSchema);
    }
    const place = (resource: { readonly key: string }, scope: string, index: number): string => `/body/${pointer(resource.key)}/${pointer(scope)}/${index}`;
    const broken = wholeStateProblems(given, options.stated ?? [], { place, nameOf: (resource) => resource.key, limit: PROBLEMS_SHOWN });
    if (broken.length > 0) return errors.validationFailed(broken.map(({ resource: _resource, ...problem }) => problem));
    const placeOf = (resource: Resource, scope: string, id: string): string | undefined => {
      const index = (given[resource.key]?.[scope] ?? []).findIndex((record, i) => options.idOf(resource.key, record, i) === id);
      return index >= 0 ? place(resource, scope, index) : undefined;
    };
    const done = completed(given, Object.keys(given), placeOf);
    if ('refused' in done) return done.refused;
    const state = done.state;
    const refusal = registry.load(state, name);
    if (refusal !== undefined) return errors.error('VALIDATION_FAILED', refusal);
    const loaded: Record<string, number> = {};
    for (const [key, scopes] of Object.entries(parsed.value as GenericState)) loaded[key] = Object.values(scopes).reduce((sum, records) => sum + records.length, 0);
    return { status: 200, body: { loaded, ...(name === undefined ? {} : { session: name }) } };
  };
  const health = { status: 'ok', contract: { title: contract.title, version: contract.version, sha256: contract.sha256 }, kit: { name: 'petstore-kit', version: options.kitVersion } };
  /** `METHOD path` → its answer; the session name (`?session=`) is read for those that take one. */
  const endpoints: Readonly<Record<string, (request: MockRequest, session: string | undefined) => AdminAnswer>> = {
    'GET /__mock/health': () => ({ status: 200, body: { ...health, sessions: registry.sessions().length } }),
    'GET /__mock/resources': () => ({ status: 200, body: describeResources(contract, resources, options.proofs?.(), options.rules) }),
    'POST /__mock/reset': (_request, session) => {
      registry.reset(session);
      return { status: 200, body: session === undefined ? { reset: 'all' } : { reset: 'session', session } };
    },
    'GET /__mock/state': (_request, session) => ({ status: 200, body: options.shape ? exportShaped(options.shape, registry.get(session)) : registry.get(session).snapshot() }),
    'PUT /__mock/state': importState,
  };

  /**
   * An import may be as large as an export of the data the mock holds, never less than the floor (state-import.ts),
   * as for the Pet Store's own store: a fixed 64 MiB let one PUT of `{"pets":[0,0,…]}` be read and parsed whole
   * (issue 12, finding 1). Counted over the initial data, which every session starts from.
   */
  const importLimit = (): number => {
    const store = registry.get();
    let records = 0;
    for (const { key } of resources.resources) for (const scope of store.scopes(key)) records += store.count(key, scope);
    return importLimitFor(records);
  };

  return {
    bodyLimit: importLimit,
    guard,
    handle(request) {
      const refused = guard(request);
      if (refused) return refused;
      const allowed = Object.keys(endpoints).filter((key) => key.endsWith(` ${request.path}`)).map((key) => key.split(' ')[0]!);
      if (allowed.length === 0) return errors.error('ROUTE_NOT_FOUND', `No admin endpoint at ${request.path.slice(0, 100)}; there are ${[...new Set(Object.keys(endpoints).map((key) => key.split(' ')[1]))].join(', ')}.`);
      const method = request.method === 'HEAD' && allowed.includes('GET') ? 'GET' : request.method;
      const endpoint = endpoints[`${method} ${request.path}`];
      if (!endpoint) return { ...errors.error('METHOD_NOT_ALLOWED', `${request.method.slice(0, 20)} is not allowed on ${request.path}; use ${allowed.join(', ')}.`), headers: { allow: allowed.join(', ') } };
      const session = readSession(request.query['session'], '/query/session');
      if (!session.ok) return errors.validationFailed([session.diagnostic]);
      return endpoint(request, session.session);
    },
  };
}
