/**
 * The control plane under `/__mock/`, outside the contract (so the document's
 * validators do not apply to it, and it is not listed in openapi.yaml):
 *
 *   POST /__mock/reset[?session=NAME]   back to the initial data: every store, or one session's
 *   GET  /__mock/state[?session=NAME]   the whole state as JSON (categories, pets, orders, inventory)
 *   PUT  /__mock/state[?session=NAME]   replace the state with such a JSON (validated first; 400 with details)
 *   GET  /__mock/health                 the contract's title, version and hash, and the kit's version
 *
 * Its errors still use the one Error builder, so a client handles them the same way; who may call it at all is
 * admin-access.ts's business (its refusals have codes of their own, as the surface is outside the contract).
 * It answers without CORS headers: no web page of another origin may use it.
 */
import { createAdminAccess, type AdminAccessSettings } from './admin-access.js';
import type { StoreRegistry } from './domain.js';
import type { ErrorAnswer, ErrorFactory } from './errors.js';
import { readJsonBody } from './body.js';
import type { MockRequest } from './message.js';
import { readSession } from './session.js';
import { createStateImport, IMPORT_MAX_DEPTH, importBodyLimit, laterNextIds } from './state-import.js';
import type { CompiledContract, Diagnostic } from '../src/schema/index.js';

export const ADMIN_PREFIX = '/__mock/';

const ROUTES: Readonly<Record<string, readonly string[]>> = {
  '/__mock/reset': ['POST'],
  '/__mock/state': ['GET', 'PUT'],
  '/__mock/health': ['GET'],
};

export interface AdminAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface Admin {
  handle(request: MockRequest): AdminAnswer;
  /** The access rule alone, for admin endpoints answered elsewhere (the request journal): a refusal, or undefined. */
  guard(request: MockRequest): AdminAnswer | undefined;
  /**
   * How many body bytes an admin request may carry: an exported state must import back (the contract's 1 MiB
   * holds about 12,000 pets), but the limit follows the data held rather than a fixed 64 MiB (state-import.ts).
   */
  bodyLimit(): number;
}

export interface AdminOptions {
  readonly compiled: CompiledContract;
  readonly registry: StoreRegistry;
  readonly errors: ErrorFactory;
  readonly kitVersion: string;
  /** Who may use it (admin-access.ts); loopback, no token, by default. */
  readonly access?: AdminAccessSettings;
}

export function isAdminPath(path: string): boolean {
  return path.startsWith(ADMIN_PREFIX);
}

export function createAdmin({ compiled, registry, errors, kitVersion, access }: AdminOptions): Admin {
  const refusal = createAdminAccess(access);
  const { contract } = compiled;
  const health = {
    status: 'ok',
    contract: { title: contract.title, version: contract.version, sha256: contract.sha256 },
    kit: { name: 'petstore-kit', version: kitVersion },
  };

  const checkState = createStateImport(compiled);
  const guard = (request: MockRequest): AdminAnswer | undefined => {
    const refused = refusal(request.method, request.headers);
    return refused ? { status: refused.status, body: { code: refused.code, message: refused.message, status: refused.status } } : undefined;
  };
  const fail = (answer: ErrorAnswer, headers?: Readonly<Record<string, string>>): AdminAnswer => ({ status: answer.status, body: answer.body, ...(headers ? { headers } : {}) });

  return {
    bodyLimit: () => importBodyLimit(registry.get()),

    guard,

    handle(request) {
      const refused = guard(request);
      if (refused) return refused;
      const allowed = Object.hasOwn(ROUTES, request.path) ? ROUTES[request.path] : undefined;
      if (!allowed) return fail(errors.error('ROUTE_NOT_FOUND', `No admin endpoint at ${clip(request.path)}; there are ${Object.keys(ROUTES).join(', ')}.`));
      const method = request.method === 'HEAD' && allowed.includes('GET') ? 'GET' : request.method;
      if (!allowed.includes(method)) {
        return fail(errors.error('METHOD_NOT_ALLOWED', `${request.method} is not allowed on ${request.path}; use ${allowed.join(', ')}.`), { allow: allowed.join(', ') });
      }
      if (request.path === '/__mock/health') return { status: 200, body: { ...health, sessions: registry.sessions().length } };

      const session = readSession(request.query['session'], '/query/session');
      if (!session.ok) return fail(errors.validationFailed([session.diagnostic]));
      const name = session.session;

      if (request.path === '/__mock/reset') {
        registry.reset(name);
        return { status: 200, body: name === undefined ? { reset: 'all' } : { reset: 'session', session: name } };
      }
      if (method === 'GET') {
        // The records and the counters: an import of this state never issues an id the store issued before (issue 20, 6d).
        const store = registry.get(name);
        return { status: 200, body: { ...store.snapshot(), nextIds: store.nextIds() } };
      }

      // PUT /__mock/state
      const parsed = readJsonBody(request.body, request.headers, true, IMPORT_MAX_DEPTH);
      if (!parsed.ok) return fail(errors.error(parsed.code, parsed.message));
      if (parsed.value === undefined) return fail(errors.validationFailed([{ pointer: '/body', keyword: 'required', message: 'a JSON state is required: {categories, pets, orders, inventory}, as GET /__mock/state exports it' }]));
      // An exported state may be past the fixtures' stricter history rules (store-consistency.ts, ConsistencyLevel).
      const verdict = checkState(parsed.value);
      if (!verdict.ok) return fail(errors.validationFailed(verdict.diagnostics.map(underBody)));
      // Nor does it take the store's own counters back: an older export loaded after a delete must not reissue that id.
      const loaded = registry.load({ ...verdict.snapshot, nextIds: laterNextIds(registry.get(name).nextIds(), verdict.snapshot.nextIds) }, name);
      if (!loaded.ok) return fail(errors.error(loaded.error.code, loaded.error.message));
      const { categories, pets, orders, inventory } = verdict.snapshot;
      return {
        status: 200,
        body: { loaded: { categories: categories.length, pets: pets.length, orders: orders.length, inventory: inventory.length }, ...(name === undefined ? {} : { session: name }) },
      };
    },
  };
}

function underBody(diagnostic: Diagnostic): Diagnostic {
  return { ...diagnostic, pointer: `/body${diagnostic.pointer}` };
}

function clip(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}
