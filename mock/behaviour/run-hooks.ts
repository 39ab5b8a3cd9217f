/**
 * A behaviour module's hooks (hooks.ts) around the generic engine's handlers: checked against the document at start-up
 * (an operationId it does not have is a RULES_INVALID kit error), run inside the session store's transaction.
 */
import type { Operation } from '../../src/contract/index.js';
import { KitError } from '../../src/kit-error.js';
import type { HandlerResult } from '../engine/seam.js';
import { copiedFields, emptyRecord, fieldCount, immutableFresh, setField } from '../engine/json.js';
import type { Resource, ResourceMap } from '../engine/infer.js';
import type { BoundHandler } from '../engine/seam.js';
import { createGenericRegistry, type GenericRegistry, type GenericState, type GenericStore, type StoredRecord } from '../engine/store.js';
import { loadContext, type Behaviour, type HookAnswer, type HookRequest, type HookResult, type HookStore, type Hooks, type LoadSource } from './hooks.js';

/** Every handler with the module's hooks around it; `where` names the module in errors. */
export function withHooks(behaviour: Behaviour, where: string, operations: readonly Operation[], handlers: ReadonlyMap<string, BoundHandler>, registry: GenericRegistry, map: ResourceMap): Map<string, BoundHandler> {
  const known = new Set(operations.map((o) => o.operationId));
  for (const id of Object.keys(behaviour.operations ?? {})) {
    if (!known.has(id)) throw new KitError('RULES_INVALID', `${where}: operations.${id} is not an operation of the document (it has ${[...known].slice(0, 12).join(', ')}${known.size > 12 ? ', …' : ''}).`, { pointer: `operations/${id}`, reason: 'unknown operationId' });
  }
  const views = new WeakMap<GenericStore, HookStore>();
  const viewOf = (store: GenericStore): HookStore => {
    let view = views.get(store);
    if (!view) views.set(store, (view = hookStore(store, map)));
    return view;
  };
  const out = new Map<string, BoundHandler>();
  for (const operation of operations) {
    const handler = handlers.get(operation.operationId)!;
    const own = behaviour.operations?.[operation.operationId];
    // The hooks this operation has, each called on the object that holds it (a module's `this`), worked out once here
    // rather than on every request (issue 34, point 1).
    const before: [Hooks, NonNullable<Hooks['before']>][] = [];
    const after: [Hooks, NonNullable<Hooks['after']>][] = [];
    for (const hooks of [behaviour, own]) {
      if (hooks?.before) before.push([hooks, hooks.before]);
      if (hooks?.after) after.push([hooks, hooks.after]);
    }
    if (before.length === 0 && after.length === 0) {
      out.set(operation.operationId, handler);
      continue;
    }
    const method = operation.method.toUpperCase();
    const kept = (result: HandlerResult): boolean => 'status' in result && result.status < 400;
    out.set(operation.operationId, (input) => {
      const store = registry.get(input.session);
      const view = viewOf(store);
      const request: HookRequest = Object.freeze({ operationId: operation.operationId, method, path: operation.pathTemplate, params: input.params, body: input.body, session: input.session });
      // One transaction for the hooks and the operation: a refusal, or a hook that throws, leaves the store as it was.
      return store.atomically(() => {
        for (const [hooks, hook] of before) {
          const answer = answerOf(hook.call(hooks, request, view), operation, 'before');
          if (answer) return answer;
        }
        let result = handler(input);
        for (const [hooks, hook] of after) {
          const answer = answerOf(hook.call(hooks, request, view, shown(result)), operation, 'after');
          if (answer) result = answer;
        }
        return result;
      }, kept);
    });
  }
  return out;
}

/**
 * A behaviour module's `load` hook (hooks.ts) as a function of a whole state: the state it completed, run on a store of
 * its own (no session sees it half done). Undefined for a module without one. A hook that throws throws here, with
 * the module named: the caller refuses the state.
 */
export function loadHook(behaviour: Behaviour, where: string, map: ResourceMap, idOf: (resource: string, record: StoredRecord, index: number) => string): ((state: GenericState, source: LoadSource) => GenericState) | undefined {
  const load = behaviour.load;
  if (!load) return undefined;
  return (state, source) => {
    const store = createGenericRegistry(state, idOf).get();
    try {
      load.call(behaviour, hookStore(store, map), loadContext(source));
    } catch (error) {
      throw new Error(`the load hook of ${where} threw: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    // Its lists go with the state: the registry made from it does not build them again (store.ts handOver).
    return store.handOver();
  };
}

/** The session's store as a hook sees it: records by collection path, every write part of the request's transaction. */
export function hookStore(store: GenericStore, map: ResourceMap): HookStore {
  const byPath = new Map<string, Resource>(map.resources.map((r) => [r.collectionPath, r]));
  const resourceOf = (collection: string): Resource => {
    const resource = byPath.get(collection);
    if (!resource) throw new Error(`${collection} is not a collection the mock keeps records of; it keeps ${[...byPath.keys()].join(', ') || 'none'}`);
    return resource;
  };
  return {
    list: (collection, scope = '') => [...store.records(resourceOf(collection).key, scope)],
    get: (collection, id, scope = '') => store.get(resourceOf(collection).key, scope, String(id)),
    put(collection, id, record, scope = '') {
      const resource = resourceOf(collection);
      // The record names itself as the store does: its id field holds the id it is kept under. Copied field by field,
      // not spread: a spread's copy given a field and frozen cost over 1 µs a put (mock/engine/json.ts copiedFields).
      const named = copiedFields(record, emptyRecord(fieldCount(record)));
      if (resource.idField !== undefined) setField(named, resource.idField, resource.idIsNumber ? Number(id) : String(id));
      // A copy made here, so frozen where it is (one object per put, not two).
      store.set(resource.key, scope, String(id), immutableFresh(named));
    },
    remove: (collection, id, scope = '') => store.remove(resourceOf(collection).key, scope, String(id)),
  };
}

/** A hook's answer as the handler's result, or undefined to go on; anything else is the hook's mistake (a 500, logged). */
function answerOf(result: HookResult, operation: Operation, hook: 'before' | 'after'): HandlerResult | undefined {
  if (result === undefined) return undefined;
  if (typeof result !== 'object' || result === null || !Number.isInteger(result.status) || result.status < 100 || result.status > 599) {
    throw new Error(`the behaviour's ${hook} hook of ${operation.operationId} returned ${JSON.stringify(result)}; return nothing, or { status, body?, headers? } with a status from 100 to 599`);
  }
  return answer(result.status, result.body, result.headers);
}

/** The handler's result as an answer for `after` (the generic engine's handlers always answer with a status). */
function shown(result: HandlerResult): HookAnswer {
  if ('error' in result) return { status: 500, body: result.error };
  return answer(result.status, result.body, result.headers);
}

/** `{ status, body?, headers? }`, each there only when it is given, built with no spread (one object an answer, not three). */
function answer<H>(status: number, body: unknown, headers: H | undefined): { status: number; body?: unknown; headers?: H } {
  if (body === undefined) return headers ? { status, headers } : { status };
  return headers ? { status, body, headers } : { status, body };
}
