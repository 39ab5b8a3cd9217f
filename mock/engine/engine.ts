/**
 * The generic engine (issue 22): a stateful mock of any document, with no code. The inferred resources
 * (infer.ts) keep records (store.ts): create, read, list, replace, partial update (RFC 7396 merge), delete, each
 * answered in the shape the document gives that operation; every other operation answers from the document's
 * examples or a value generated from its schema, the same for the same seed. Every answer is checked against
 * the document before it leaves (`conform`), and fitted where it does not match.
 */
import type { Contract, Operation } from '../../src/contract/index.js';
import { KitError } from '../../src/kit-error.js';
import type { CompiledContract } from '../../src/schema/index.js';
import { DEFAULT_GENERATION_BUDGET, literalPrefix, type GenerationBudget } from '../../src/generate/index.js';
import { lastOfSeveralWords, wordsOf } from '../../src/parameter-words.js';
import { isCreationTimeName, isServerTime, isUpdateTime } from '../../src/server-times.js';
import type { SessionDropReason } from '../conveniences/session.js';
import type { HandlerResult } from './seam.js';
import { copiedFields, emptyRecord, fieldCount, immutableFresh, immutableJson, isImmutableJson, setField } from './json.js';
import type { MockResponse } from './message.js';
import { createGenericAdmin } from '../admin/state.js';
import { createAnswerGuard, type TemplatedHeader } from './answer-guard.js';
import { createRuleBook, type Refusal, type WriteEvent } from '../behaviour/rule-book.js';
import { describeRule, readNotFound, readRules } from '../behaviour/rules.js';
import type { Behaviour } from '../behaviour/hooks.js';
import { loadHook, withHooks } from '../behaviour/run-hooks.js';
import { fitTo, keptWhenValid, repair, sameJson, type Problems } from './conform.js';
import { createPlainErrorFactory } from './document-errors.js';
import { ValueGenerator } from './generate.js';
import { inferResources, namedResourceOf, ownerOf, parentOf as parentResource, singularOf, type MockOverlay, type Resource, type ResourceMap } from './infer.js';
import { buildInitialState, heldInitialState, type FixtureFiles } from './initial.js';
import { listAnswer } from './lists.js';
import { createAnswerPlans } from './plans.js';
import { sweepProofs, type ProofState } from './proof-sweep.js';
import { unanswerableLines } from './report.js';
import { hash } from './seeded.js';
import type { BoundHandler, CarriedData, CarriedVerdict, FixtureProblem, MockEngine, OperationInput } from './seam.js';
import { allowsNull, isObject, jsonMedia, mergeAllOf, propertiesOf, requestSchema, responseFor, successStatus, typeOf, type JsonObject, type Schema } from './schemas.js';
import { readStateShape } from './state-shape.js';
import { createGenericRegistry, type GenericStore, type StoredRecord } from './store.js';
import { answerSpot, cannotAnswer } from './unmakeable.js';

export interface GenericSettings {
  /** Seeds generated records, ids and answers (`--seed`); 1 by default. */
  readonly seed?: number;
  /** `--fixtures DIR` read as `<collection>.json` files (fixtures.ts), or 'none' for empty collections. */
  readonly fixtures?: FixtureFiles | 'none';
  /**
   * The fixtures are the kit's own generator's data for the kit's own document (`--seed N --pets K` through issue 34's
   * seam, mock/behaviour/petstore/seed.ts): records made valid by construction, so each is kept as it is (frozen where it is, under the
   * id it carries) rather than checked and fitted one by one at start-up, which took most of the start at 100k pets.
   * Their answers are still checked by the answer guard, as any record's not checked when stored.
   */
  readonly fixturesGenerated?: boolean;
  /** Corrections to the inference, in the words of the `x-mock-*` extensions. */
  readonly overlay?: MockOverlay;
  readonly maxSessions?: number;
  /**
   * Prove every documented answer after start-up, one operation per turn of the event loop (proof-sweep.ts): the
   * node:http server does; MSW proves an answer when a request first needs it.
   */
  readonly proveInBackground?: boolean;
  /** Where to say which documented answers cannot be made, once the proof is done (the start-up log). */
  readonly announce?: (line: string) => void;
  /** A behaviour module's hooks around the operations (`--behaviour FILE`; behaviour/hooks.ts), with the file it came from. */
  readonly behaviour?: { readonly module: Behaviour; readonly file: string };
  /** The caps on one generated value (`--generation-budget`, src/generate/budget.ts). */
  readonly generationBudget?: GenerationBudget;
  /** `--max-session-memory` in bytes: what all X-Mock-Session stores may hold together (store.ts). */
  readonly maxSessionMemory?: number;
  /** Told of each session dropped by a bound, for the same log line as the Pet Store's (server.ts). */
  readonly onSessionDrop?: (session: string, reason: SessionDropReason) => void;
  /** The previous engine's data, kept where it fits this document (`--watch` reloading an edited document). */
  readonly carried?: CarriedData;
}

export interface GenericEngine extends MockEngine {
  readonly resources: ResourceMap;
  readonly conform: (operation: Operation, response: MockResponse, accept?: string) => MockResponse;
  /** How far the proof of every documented answer has gone, and what cannot be made (proof-sweep.ts). */
  readonly proofs: () => ProofState;
}

export function createGenericEngine(compiled: CompiledContract, settings: GenericSettings & { readonly basePath: string; readonly now?: Date }): GenericEngine {
  const { contract } = compiled;
  const seed = settings.seed ?? 1;
  const resources = inferResources(contract, settings.overlay);
  const budget = settings.generationBudget ?? DEFAULT_GENERATION_BUDGET;
  const generatorFor = (from: number): ValueGenerator => new ValueGenerator(from, budget, contract.document);
  const generator = generatorFor(seed);
  const ids = generatorFor(seed + 1);
  const errors = createPlainErrorFactory(contract);
  const clock = (): string => (settings.now ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
  /**
   * The time a server stamps, in the type its field has: Unix seconds where a `date-time` is typed as a number
   * (Intercom's `created_at: {type: integer, format: date-time}`), else RFC 3339 text. An ISO text in an integer field
   * was refitted to the field's example, and the create answered the client's value while the record kept another.
   */
  const stamp = (property: Schema): string | number => {
    const type = typeOf(property);
    return type === 'integer' || type === 'number' ? Math.floor((settings.now ?? new Date()).getTime() / 1000) : clock();
  };
  const valid = (schema: Schema, value: unknown): boolean => compiled.validate(schema, value, 'response').length === 0;
  const problems: Problems = (schema, value) => compiled.validate(schema, value, 'response');
  const planOf = createAnswerPlans((operation) => resources.roles.get(operation.operationId)?.resource);
  const parentOf = new Map<Resource, Resource>();
  const described = new Set(contract.operations.map((operation) => operation.pathTemplate));
  for (const resource of resources.resources) {
    const parent = parentResource(resource, resources.resources, described);
    if (parent) parentOf.set(resource, parent);
  }

  /**
   * The members of a stored record that fitting it to the record schema changed from what its client sent: the schema
   * the resource's read answers (Rebilly's `PaymentToken`, whose `method` cannot be `payment-card`) may refuse what
   * the write's own answer allows (its `oneOf` of every token kind). The write then answers what was sent where its
   * own schema holds it (withEcho); reads answer the record as stored, which their schema holds.
   */
  const refitted = new WeakMap<StoredRecord, ReadonlySet<string>>();
  /**
   * A record schema's properties, each with its allOf folded, worked out once per schema rather than on every write
   * (issue 34, point 1: what can be compiled per operation is, as fastify compiles its schemas). `acting`: those a
   * write may fill (a server time, a readOnly field, a documented default), with what makes them so; the others a
   * write keeps as sent, and makeRecord does not look at them.
   */
  interface RecordProperties {
    readonly byName: ReadonlyMap<string, Schema>;
    /** Each property's place in the schema's `properties`: a record's keys are written in that order (inSchemaOrder). */
    readonly place: ReadonlyMap<string, number>;
    readonly acting: readonly { readonly name: string; readonly property: Schema; readonly serverTime: boolean; readonly updateTime: boolean }[];
  }
  const recordProperties = new WeakMap<Schema, RecordProperties>();
  const propertiesOfRecord = (schema: Schema): RecordProperties => {
    let known = recordProperties.get(schema);
    if (!known) {
      const list = [...propertiesOf(schema)].map(([name, raw]) => [name, mergeAllOf(raw)] as const);
      const acting = list
        .map(([name, property]) => ({ name, property, serverTime: isServerTime(name, property), updateTime: isUpdateTime(name, property) }))
        .filter(({ property, serverTime }) => serverTime || property.readOnly || (property.default !== undefined && property.default !== null));
      recordProperties.set(schema, (known = { byName: new Map(list), place: new Map(list.map(([name], index) => [name, index])), acting }));
    }
    return known;
  };
  /** A record as stored: the client's fields fitted to the record schema, the id and server-owned fields set by the mock. */
  const makeRecord = (resource: Resource, input: unknown, id: string, existing?: StoredRecord): StoredRecord => {
    const schema = resource.recordSchema;
    // Copied field by field, as `{ ...existing, ...input }` would: the record is given fields and frozen below, which a
    // spread's copy makes slow (mock/engine/json.ts copiedFields).
    // Sized for what it will hold: the fields it had, or the client's and its id (json.ts emptyRecord).
    const sent = isObject(input) ? fieldCount(input) + (resource.idField === undefined || Object.hasOwn(input, resource.idField) ? 0 : 1) : 0;
    let record = copiedFields(existing ?? NO_FIELDS, emptyRecord(existing ? Math.max(fieldCount(existing), sent) : sent)) as JsonObject;
    const idField = resource.idField;
    const idValue = idField === undefined ? undefined : resource.idIsNumber ? Number(id) : id;
    // A create's id set first, so that the client's fields then follow it in the order they came (inSchemaOrder below
    // then has nothing to move where the client wrote them in the schema's order).
    if (!existing && idField !== undefined) record[idField] = idValue;
    if (isObject(input)) copiedFields(input, record);
    // Set again only where the client's fields gave it another value (a create's body seldom names its id).
    if (idField !== undefined && record[idField] !== idValue) record[idField] = idValue;
    const properties = schema ? propertiesOfRecord(schema) : undefined;
    if (properties) {
      for (const { name, property, serverTime, updateTime } of properties.acting) {
        if (name === resource.idField) continue;
        if (serverTime && (updateTime || existing?.[name] === undefined)) record[name] = stamp(property);
        else if (property.readOnly && existing && Object.hasOwn(existing, name)) record[name] = existing[name];
        else if (property.readOnly && !Object.hasOwn(record, name)) {
          const value = generator.value(property, 'response', 0, 1, name);
          if (value !== undefined) record[name] = value;
        }
        // A field a create leaves out takes its documented default, as the server assumes it (OAS 3.0.3 §4.7.24 `default`).
        // A text, number or boolean is its own copy: only an object or array default is cloned (structuredClone was a
        // tenth of an order's own cost for `complete: false`, in a CPU profile of the order cycle).
        else if (existing === undefined && !Object.hasOwn(record, name) && property.default !== undefined && property.default !== null) record[name] = typeof property.default === 'object' ? structuredClone(property.default as unknown) : property.default;
      }
    }
    if (properties && isObject(input)) {
      // A client's value the record types otherwise (Discourse's reply_to_post_number: sent as an integer, answered as
      // `[string, null]`) is kept converted, not replaced by an invented one, where a conversion keeps its meaning.
      // Read from the declared types alone: no validation here, fitTo() below checks the record once.
      // for-in, not Object.keys: no list made per write (parsed JSON is a plain object, nothing enumerable inherited).
      for (const name in input) {
        const property = properties.byName.get(name);
        const other = property ? convertedEcho(record[name], property) : undefined;
        if (other !== undefined) record[name] = other;
      }
    }
    if (properties) record = inSchemaOrder(record, properties.place);
    // A record the schema passes is kept as it is where fitting would give it back unchanged (keptWhenValid): one
    // validation, no repaired copy, and noted as valid against the schema (mock/engine/json.ts validAgainst), so an answer of
    // it is not validated against the same schema again. Frozen where it is: the record made here is this function's own.
    if (!schema) return immutableFresh(record);
    if (keptWhenValid(schema, 'response') && problems(schema, record).length === 0) return immutableFresh(record, schema);
    // Else fitted. The values the record schema's validator passed while fitting: the record stored is noted as valid
    // against the schema when it is one of them.
    const passed: unknown[] = [];
    const checked: Problems = (s, value) => {
      const found = problems(s, value);
      if (found.length === 0 && s === schema && typeof value === 'object' && value !== null) passed.push(value);
      return found;
    };
    const fitted = keyKept(resource, record, fitTo(record, schema, generator, 'response', checked), schema, checked);
    // Frozen all the way down, so its text is written once and kept (mock/engine/json.ts), and its check remembered (conform);
    // a fitted value is copied.
    const stored = fitted === record ? immutableFresh(record) : immutableJson(isObject(fitted) ? fitted : record, isObject(fitted) && passed.includes(fitted) ? schema : undefined);
    if (isObject(input) && isObject(fitted) && fitted !== record) {
      const changed = Object.keys(input).filter((name) => Object.hasOwn(record, name) && !sameJson(fitted[name], record[name]));
      if (changed.length > 0) refitted.set(stored, new Set(changed));
    }
    return stored;
  };

  /**
   * The record with its keys in its schema's `properties` order (the id first in the Pet Store, as the former Pet Store
   * engine wrote `{"id":21,"name":"Rex",...}`), the fields the schema does not name after them in the order they came.
   * The record itself where its keys are in that order already, which costs one pass over them and no copy.
   */
  const inSchemaOrder = (record: JsonObject, place: ReadonlyMap<string, number>): JsonObject => {
    let last = -1;
    let unnamed = false;
    let inOrder = true;
    // for-in, not Object.keys: no list made per write (a record is a plain object, nothing enumerable inherited).
    for (const key in record) {
      const at = place.get(key);
      if (at === undefined) unnamed = true;
      else if (unnamed || at < last) { inOrder = false; break; }
      else last = at;
    }
    if (inOrder) return record;
    const ordered: JsonObject = {};
    for (const key of place.keys()) if (Object.hasOwn(record, key)) setField(ordered, key, record[key]);
    for (const key in record) if (!place.has(key)) setField(ordered, key, record[key]);
    return ordered;
  };

  /** A record of the kit's own generator (fixturesGenerated): kept as it is where it carries its id, else made as any other. */
  const keptAsGenerated = (resource: Resource, input: unknown, id: string): StoredRecord => {
    const { idField } = resource;
    const own = idField !== undefined && isObject(input) ? input[idField] : undefined;
    if (!isObject(input) || idField === undefined || (own !== (resource.idIsNumber ? Number(id) : id))) return makeRecord(resource, input, id);
    return immutableFresh(input);
  };

  /**
   * The fitted record with the key it is kept under, where the fit changed it and either the key fits too or nothing
   * fits at all (a record schema no value meets: GrowthBook's experiments, read as `ExperimentWithEnhancedStatus`): a
   * fit that drew the whole record afresh invented a key (`shark`) under which nothing was kept. A key the schema
   * refuses and the fit made valid (`mycompany` → `custom:mycompany`) stays as fitted: the create keeps it under that.
   */
  const keyKept = (resource: Resource, record: JsonObject, fitted: unknown, schema: Schema, check: Problems): unknown => {
    const { idField } = resource;
    if (!idField || !isObject(fitted) || !Object.hasOwn(record, idField) || sameJson(fitted[idField], record[idField])) return fitted;
    const kept = { ...fitted, [idField]: record[idField] };
    return check(schema, kept).length === 0 || check(schema, fitted).length > 0 ? kept : fitted;
  };

  /**
   * A new record's id: unused in its collection (scope), and one the record's id field and the item path's parameter
   * accept, so the record is answered under it and read back at its own path. Tried in order: the sequence (1, 2, 3:
   * ids a person can type), the sequence zero-padded to the least length the schemas ask (Adyen's 30 characters),
   * then values generated from the schemas (a uuid, a pattern's sample), each drawn again while it is taken. A
   * generated value was once returned unchecked: Discord's snowflake pattern `^(0|[1-9][0-9]*)$` refuses a padded
   * sequence, and its draws (`0`, `0`, `4326`, `0`) replaced records already held. Undefined when no free id fits
   * (an enum or a range that is full): the create is refused (conflict()), never answered for another record.
   */
  const newId = (resource: Resource, store: GenericStore, scopeOfParams: string): string | undefined => {
    if (resource.idKind === 'integer') {
      // Within the id parameter's bounds (`orderId: 1..10`), so the record can be read back.
      const min = resource.idMinimum === undefined ? undefined : Math.ceil(resource.idMinimum);
      const max = resource.idMaximum;
      const taken = store.nextNumber(resource.key);
      const next = Math.max(taken, min ?? -Infinity);
      // The sequence is past every safe integer id the collection holds (store.ts), so its next number, or a minimum
      // above it, is free without a lookup (a miss in a map of every record, 5% of a create's CPU at 100k records).
      // Past 2^53 numbers round onto held ones: looked up as before.
      if (Number.isSafeInteger(next) && (max === undefined || next <= max) && (Number.isSafeInteger(taken) || !store.get(resource.key, scopeOfParams, String(next)))) return String(next);
      // Past the maximum, or past 2^53 (a client chose an id at the top of int64, Traccar's devices: the sequence
      // followed it, and every next number rounded to one already taken): a free id from the bottom of the range,
      // looked for among a bounded number (a range of a billion is not walked).
      const from = Math.max(1, min ?? 1);
      for (let candidate = from; (max === undefined || candidate <= max) && candidate < from + MAX_ID_SCAN; candidate += 1) if (!store.get(resource.key, scopeOfParams, String(candidate))) return String(candidate);
      return undefined;
    }
    const unused = (candidate: string): boolean => !store.get(resource.key, scopeOfParams, candidate);
    const field = resource.idField && resource.recordSchema ? propertiesOf(resource.recordSchema).get(resource.idField) : undefined;
    const s = field ? mergeAllOf(field) : undefined;
    // The field's own words, when it is text (a number field holds the id as a number: its text is the path's).
    const fieldTyped = s !== undefined && (typeOf(s) === 'string' || (typeOf(s) === undefined && (s.pattern !== undefined || s.format !== undefined || s.enum !== undefined)));
    const fits = (candidate: string): boolean => candidate !== '' && !candidate.includes('/') && (!fieldTyped || valid(s, candidate)) && (!resource.idSchema || valid(resource.idSchema, candidate)) && unused(candidate);
    if (resource.idKind === 'uuid') {
      for (let draw = 0; draw < MAX_ID_DRAWS; draw += 1) {
        const candidate = ids.faker.string.uuid();
        if (fits(candidate)) return candidate;
      }
      return undefined;
    }
    const next = String(store.nextNumber(resource.key));
    if (fits(next)) return next;
    // Too short (at least 26 characters, PagerDuty's SCIM ids): the sequence number padded with zeros stays unique.
    const minimum = Math.max(fieldTyped ? (s.minLength ?? 0) : 0, resource.idSchema?.minLength ?? 0);
    const padded = next.padStart(minimum, '0');
    if (padded !== next && fits(padded)) return padded;
    // A key whose pattern starts with fixed text (Okta's `goi[0-9a-zA-Z]+`, 20 characters; `^usr_[0-9]+$`): that text
    // and the sequence number, padded to the key's length. The pattern's sample alone missed the length every draw.
    for (const from of [resource.idSchema, fieldTyped ? s : undefined]) {
      const pattern = from ? mergeAllOf(from).pattern : undefined;
      const prefix = typeof pattern === 'string' ? literalPrefix(pattern.startsWith('^') ? pattern : `^${pattern}`) : '';
      const typed = `${prefix}${next.padStart(Math.max(0, minimum - prefix.length), '0')}`;
      if (prefix !== '' && fits(typed)) return typed;
    }
    // A pattern's sample may break the schema's other words (a slug of 43 characters where maxLength is 40), or be
    // taken: the document decides, each draw checked, a bounded number of them.
    for (const from of [resource.idSchema, fieldTyped ? s : undefined]) {
      if (!from) continue;
      for (let draw = 0; draw < MAX_ID_DRAWS; draw += 1) {
        const candidate = ids.value(from, 'response', draw % 8, 1, resource.idField ?? resource.idParam);
        if (typeof candidate === 'string' && fits(candidate)) return candidate;
      }
    }
    // Every draw refused or taken: the collection holds every id its schemas allow (or all the mock can find).
    return undefined;
  };

  // Rules stated beside the document (x-mock-unique, -references, -states, -effects), checked against it now.
  const rules = createRuleBook(readRules(compiled, resources, settings.overlay));
  if (settings.announce && rules.rules.length > 0) settings.announce(`  rules: ${rules.rules.map((rule) => { const d = describeRule(rule); return `${d.collection} ${d.says}`; }).join('; ')}`);
  // The shape of an exported state, where the overlay names one (state-shape.ts), checked against the document now.
  const shape = readStateShape(settings.overlay?.state, resources);
  const initial = buildInitialState(contract, resources, settings.fixtures, generator, settings.fixturesGenerated && settings.fixtures !== 'none' ? keptAsGenerated : (resource, input, id) => makeRecord(resource, input, id));
  // A behaviour module's `load` hook completes every whole state the mock takes: the initial data first, once it is held
  // to the stated rules (fixtures files refused where they break one, the mock's own data made to keep them: initial.ts).
  const complete = settings.behaviour ? loadHook(settings.behaviour.module, settings.behaviour.file, resources, initial.idOf) : undefined;
  const source = settings.fixtures === undefined || settings.fixtures === 'none' ? 'own' : settings.fixturesGenerated ? 'kit' : 'files';
  const initialState = heldInitialState(initial.state, source, { rules: rules.rules, map: resources, idOf: initial.idOf, valid, problems: settings.carried ? undefined : (schema, value) => compiled.validate(schema, value, 'response'), shape, complete, behaviourFile: settings.behaviour?.file });
  const registry = createGenericRegistry(initialState, initial.idOf, {
    ...(settings.maxSessions !== undefined ? { maxSessions: settings.maxSessions } : {}),
    ...(settings.maxSessionMemory !== undefined ? { maxSessionMemory: settings.maxSessionMemory } : {}),
    ...(settings.onSessionDrop ? { onDrop: settings.onSessionDrop } : {}),
  });

  /** A path parameter, typed where the operation declares it, as sent where it does not. */
  const pathValue = (input: OperationInput, name: string): string => String(input.params.path[name] ?? input.pathParams[name]);
  const scopeOf = (resource: Resource, input: OperationInput): string => (resource.scopeParams.length === 0 ? '' : resource.scopeParams.map((name) => pathValue(input, name)).join('/'));
  const idText = (resource: Resource, input: OperationInput): string => pathValue(input, resource.idParam);

  /** What a collection's 404 says, where its path item (or the overlay) states it (`x-mock-not-found`, rules.ts). */
  const notFoundWords = readNotFound(compiled, resources, settings.overlay);
  /** A 404 in the operation's own words: the document's error body for it is fitted by conform(). */
  const notFound = (resource: Resource, id: string, what = `${singularOf(resource.name)} ${id}`): HandlerResult => {
    const stated = notFoundWords.get(resource.key);
    const answer = errors.error('ROUTE_NOT_FOUND', stated?.message !== undefined ? stated.message.replaceAll('{id}', id) : `${what} was not found in ${resource.collectionPath}.`);
    return { status: 404, body: { ...answer.body, code: stated?.code ?? catalogueCode(contract, 404, resource) ?? 'NOT_FOUND' } };
  };
  /** Whether the operation documents a status a conflict can take (409, 422 or 400; a range or `default` included). */
  const refusesConflicts = new Map<Operation, boolean>();
  const canRefuseConflict = (operation: Operation): boolean => {
    let known = refusesConflicts.get(operation);
    if (known === undefined) refusesConflicts.set(operation, (known = CONFLICT_STATUSES.some((code) => responseFor(operation, code) !== undefined)));
    return known;
  };
  /**
   * A create refused for its id (a chosen id already held, no free id left): the status the rule book gives a
   * conflict (behaviour/rule-book.ts: 409, else 422, else 400, the first the operation documents, a range or
   * `default` included). A taken key where none is documented replaces the record instead (the create handler); only
   * a collection with no free id left and no such status gets 409 undocumented, which the answer guard sends in the
   * document's Error shape (answer-guard.ts). Nothing is stored.
   */
  const conflict = (operation: Operation, message: string): HandlerResult => {
    const status = CONFLICT_STATUSES.find((code) => responseFor(operation, code) !== undefined) ?? 409;
    const answer = errors.error('ROUTE_NOT_FOUND', message);
    return { status, body: { ...answer.body, code: 'CONFLICT', status } };
  };
  /** A nested record's parent must exist: `/a/9/things` under a deleted `a` is a 404 like the parent itself. */
  const missingParent = (resource: Resource, store: GenericStore, input: OperationInput): HandlerResult | undefined => {
    const parent = parentOf.get(resource);
    if (!parent) return undefined;
    // By position, not by name: `/Accounts/{AccountSid}/Calls.json` names the id that `/Accounts/{Sid}.json` calls Sid.
    const values = resource.scopeParams.map((name) => pathValue(input, name));
    const scope = values.slice(0, -1).join('/');
    const id = values[values.length - 1] ?? '';
    return store.get(parent.key, scope, id) ? undefined : notFound(parent, id, `${parent.name} ${id}`);
  };

  /**
   * The records in the shape an operation answers them: the first bare, or in the envelope its schema has
   * (`{ data: ... }`), or all of them in the array member records travel in (`{ Items: [...] }`). The envelope of one
   * stored record is made once and kept with it, so a read answers the same object each time.
   */
  const envelopes = new Map<string, WeakMap<StoredRecord, unknown>>();
  const shaped = (operation: Operation, status: number, records: readonly StoredRecord[]): unknown => {
    const { shape } = planOf(operation, status);
    if (shape.kind === 'batch' && records.length > 1) return { [shape.key]: records };
    return shapedOne(operation, status, records[0]);
  };
  /** One record (or none) in the shape an operation answers it: `shaped` of a list of one, with no list made. */
  const shapedOne = (operation: Operation, status: number, record: StoredRecord | undefined): unknown => {
    const { shape } = planOf(operation, status);
    if (shape.kind === 'none' || record === undefined) return undefined;
    if (shape.kind === 'bare') return record;
    const wrap = (one: StoredRecord): unknown => (shape.kind === 'batch' ? { [shape.key]: [one] } : { [shape.key]: one });
    if (!isImmutableJson(record)) return wrap(record);
    // By kind and key: `{ data: {...} }` and `{ data: [...] }` are two envelopes of one record.
    const memo = `${shape.kind}:${shape.key}`;
    let kept = envelopes.get(memo);
    if (!kept) envelopes.set(memo, (kept = new WeakMap()));
    let envelope = kept.get(record);
    if (envelope === undefined) kept.set(record, (envelope = immutableJson(wrap(record))));
    return envelope;
  };

  /** The envelope this operation's own success answer wraps a record in (plans.ts), where the resource has none. */
  const envelopeOfAnswer = new Map<Operation, string | undefined>();
  const answerEnvelope = (operation: Operation): string | undefined => {
    // Read from the document once per operation (asked on every write).
    if (envelopeOfAnswer.has(operation)) return envelopeOfAnswer.get(operation);
    let found: string | undefined;
    for (const status of [201, 200]) {
      const { shape, key } = planOf(operation, status);
      if (key !== undefined && shape.kind === 'envelope') {
        found = shape.key;
        break;
      }
    }
    envelopeOfAnswer.set(operation, found);
    return found;
  };

  /**
   * The records a write was sent: its body, or each record of the envelope records travel in (`{ Items: [...] }`).
   * An envelope whose member is no array, an empty one, or one holding anything but objects is refused: a 400 with
   * nothing stored (the document's error body for it is fitted by conform()).
   */
  const sentRecords = (operation: Operation, resource: Resource, body: unknown): { readonly records: readonly unknown[] } | { readonly refused: HandlerResult } => {
    // A record sent in the envelope its answers wrap it in (`{ "rule": {...} }` both ways: PagerDuty, Box): the record
    // is what the envelope holds, or it would be kept as the envelope and answered wrapped twice.
    const envelope = resource.itemEnvelope ?? answerEnvelope(operation);
    if (envelope !== undefined && isObject(body) && isObject(body[envelope]) && sendsEnvelope(operation, envelope)) return { records: [body[envelope]] };
    const key = resource.batchKey;
    if (key === undefined || !isObject(body) || !Object.hasOwn(body, key)) return { records: [body] };
    const members = body[key];
    const refuse = (keyword: string, message: string, at = ''): { refused: HandlerResult } => {
      const answer = errors.error('VALIDATION_FAILED', `${message}; nothing was stored.`, [{ pointer: `/body/${key}${at}`, keyword, message }]);
      return { refused: { status: answer.status, body: answer.body } };
    };
    if (!Array.isArray(members)) return refuse('type', `${key} must be an array of ${resource.name} records`);
    if (members.length === 0) return refuse('minItems', `${key} holds no record`);
    const stray = members.findIndex((member) => !isObject(member));
    if (stray >= 0) return refuse('type', `${key}[${stray}] is not a record (an object)`, `/${stray}`);
    return { records: members };
  };

  /**
   * A body without the members its request schema closes out (`additionalProperties: false`): under `--validation
   * warn|off` such a body is let through, and a server ignores what it does not know rather than keep it (a stored
   * `colour` the record schema has no word for, a `__proto__`). Strict validation refused it before it came here.
   */
  const closedRequests = new Map<string, ReadonlySet<string> | undefined>();
  const knownMembers = (operation: Operation, body: unknown): unknown => {
    if (!isObject(body)) return body;
    let known = closedRequests.get(operation.operationId);
    if (!closedRequests.has(operation.operationId)) {
      const schema = requestSchema(operation);
      const merged = schema ? mergeAllOf(schema) : undefined;
      known = merged && merged.additionalProperties === false && !merged.oneOf && !merged.anyOf ? new Set(propertiesOf(merged).keys()) : undefined;
      closedRequests.set(operation.operationId, known);
    }
    if (!known || everyKnown(body, known)) return body;
    return Object.fromEntries(Object.entries(body).filter(([name]) => known.has(name)));
  };

  const itemPathParts = new Map<Resource, string[]>();
  /** A top-level collection's item path (its id its one parameter), split at the id once: the text before and after it. */
  const partsOf = (resource: Resource): string[] => {
    let parts = itemPathParts.get(resource);
    if (!parts) {
      const at = resource.itemPath.indexOf(`{${resource.idParam}}`);
      parts = at < 0 ? [`${settings.basePath}${resource.itemPath}`] : [`${settings.basePath}${resource.itemPath.slice(0, at)}`, resource.itemPath.slice(at + resource.idParam.length + 2)];
      itemPathParts.set(resource, parts);
    }
    return parts;
  };
  const locationOf = (resource: Resource, input: OperationInput, id: string): string => {
    // A top-level collection's item path has the id as its one parameter: split once, joined per create.
    if (resource.scopeParams.length === 0) {
      const parts = partsOf(resource);
      return parts.length === 1 ? parts[0]! : `${parts[0]!}${encodeURIComponent(id)}${parts[1]!}`;
    }
    let path = resource.itemPath;
    for (const name of resource.scopeParams) path = path.replace(`{${name}}`, encodeURIComponent(pathValue(input, name)));
    return `${settings.basePath}${path.replace(`{${resource.idParam}}`, encodeURIComponent(id))}`;
  };

/** Runs `then` on the record an item path names, or answers the 404 (its parent's, when the parent is gone). */
  const held = (resource: Resource, input: OperationInput, then: (store: GenericStore, scope: string, id: string, record: StoredRecord) => HandlerResult): HandlerResult => {
    const store = registry.get(input.session);
    const scope = scopeOf(resource, input);
    const id = idText(resource, input);
    const record = store.get(resource.key, scope, id);
    if (record) return then(store, scope, id, record);
    const aliased = byAlias(resource, store, scope, id);
    return aliased ? then(store, scope, aliased.key, aliased.record) : (missingParent(resource, store, input) ?? notFound(resource, id));
  };

  /**
   * A record an item path names by either of two fields (`{type_id_or_name}`, `{connector_id_or_name}`, `{idOrSlug}`:
   * PagerDuty's incident types, kept under the name a client chose, read back by the id the create answered): looked
   * up by the other field where the key finds none. Only on a miss, and only for such a parameter.
   */
  const byAlias = (resource: Resource, store: GenericStore, scope: string, value: string): { key: string; record: StoredRecord } | undefined => {
    const fields = aliasFields(resource.idParam);
    const { idField } = resource;
    if (fields.length === 0 || !idField) return undefined;
    for (const record of store.records(resource.key, scope)) {
      if (fields.some((field) => field !== idField && record[field] !== undefined && record[field] !== null && String(record[field]) === value)) return { key: String(record[idField]), record };
    }
    return undefined;
  };

  /**
   * One write of the store with the stated rules around it (rule-book.ts): refused before it is made, or by what it
   * does to other records after; undefined when it holds.
   */
  const write = (operation: Operation, store: GenericStore, event: WriteEvent): Refusal | undefined => {
    const refused = rules.before(event, store, operation);
    if (refused) return refused;
    if (event.kind === 'delete') store.remove(event.resource.key, event.scope, event.id);
    else store.set(event.resource.key, event.scope, event.id, event.after!);
    return rules.after(event, store, operation);
  };
  /** A writing handler run as one transaction of its session's store: an answer of 400 or more undoes every write it made. */
  const inTurn =
    (handler: (input: OperationInput, store: GenericStore) => HandlerResult): BoundHandler =>
    (input) => {
      const store = registry.get(input.session);
      return store.atomically(() => handler(input, store), keptWhenAnswered);
    };

  const roleHandler = (operation: Operation, resource: Resource, role: string): BoundHandler => {
    const namingMember = memberNamingRecord(resource);
    /** The records made or changed (each with what its client sent echoed where the answer declares it). */
    const okAll = (status: number | undefined, records: readonly StoredRecord[], headers?: Record<string, string>, sent: readonly unknown[] = [], keys: readonly string[] = []): HandlerResult => {
      const code = status ?? 200;
      if (records.length === 1) return ok(code, records[0]!, headers, sent[0], keys[0]);
      return answered(code, shaped(operation, code, records.map((record, index) => withEcho(operation, code, namedByParam(operation, code, resource, record, keys[index]), sent[index]))), headers);
    };
    /** `okAll` of one record, with no list made for it (a read, a create of one). */
    const ok = (status: number | undefined, record: StoredRecord, headers?: Record<string, string>, sent?: unknown, key?: string): HandlerResult => {
      const code = status ?? 200;
      return answered(code, shapedOne(operation, code, withEcho(operation, code, namedByParam(operation, code, resource, record, key), sent)), headers);
    };
    switch (role) {
      case 'list': {
        // The answers given since the store last changed, by scope and query: a list read again (a front end polling
        // it) is the same immutable object, whose text is kept and whose check is remembered.
        const answered = new WeakMap<GenericStore, { revision: number; answers: Map<string, HandlerResult> }>();
        return (input) => {
          const store = registry.get(input.session);
          const scope = scopeOf(resource, input);
          const key = `${scope}\u0000${JSON.stringify(input.params.query)}`;
          let kept = answered.get(store);
          if (!kept || kept.revision !== store.revision()) answered.set(store, (kept = { revision: store.revision(), answers: new Map() }));
          const known = kept.answers.get(key);
          if (known) return known;
          const answer = missingParent(resource, store, input) ?? listAnswer(operation, resource, store.records(resource.key, scope), input.params.query, settings.basePath);
          const result = 'body' in answer && answer.body !== undefined ? { ...answer, body: immutableJson(answer.body) } : answer;
          if (kept.answers.size < KEPT_LIST_ANSWERS) kept.answers.set(key, result);
          return result;
        };
      }
      case 'create':
      case 'createOrUpdate': {
        // A create under another record's path (`POST /project/{projectId}/environment` for `/environment/{environmentId}`):
        // that record must exist, as it must for any operation under its item path (exampleHandler).
        const owner = operation.pathTemplate === resource.collectionPath ? undefined : ownerOf(operation, resources.resources);
        // The id a sent record names: its id field, else the member that names it (memberNamingRecord).
        const givenOf = (element: unknown): string | number | undefined => {
          const given = resource.idField && isObject(element) ? (element[resource.idField] ?? (namingMember ? element[namingMember] : undefined)) : undefined;
          return typeof given === 'string' || typeof given === 'number' ? given : undefined;
        };
        const refusable = canRefuseConflict(operation);
        // The statuses it answers, read from the document once (the operation's responses never change).
        const createdStatus = successStatus(operation, CREATED_FIRST);
        const updatedStatus = successStatus(operation, OK_FIRST);
        return inTurn((input, store) => {
          const missing = missingParent(resource, store, input);
          if (missing) return missing;
          const absent = owner ? ownerMissing(owner, store, input) : undefined;
          if (absent) return absent;
          const scope = scopeOf(resource, input);
          const sent = sentRecords(operation, resource, knownMembers(operation, input.body));
          if ('refused' in sent) return sent.refused;
          // A key the client chooses (`name: user.signup`, the item path's own parameter) that a record already holds,
          // or that an earlier record of the same batch takes: refused (RFC 9110 §15.5.10), never stored under an id of
          // the mock's own, which answered for a record the client did not name (Discord's `channel_id`, Typesense's
          // model `id`: a second create with the same one answered 200 with another). Looked at before anything is
          // stored: a batch with one taken key stores none of its records.
          // Where the create documents no refusal a conflict could take (no 409, 422, 400, 4XX or default), a refusal
          // would be an answer its document does not allow: the record under that key is replaced instead, as a create
          // that is idempotent by its key does (Box's "mark a file as a template"), answered with the documented success.
          if (role === 'create' && refusable) {
            // The keys an earlier record of the batch takes: a set only for a batch (a create of one sends one record).
            let chosen: Set<string> | undefined;
            for (const element of sent.records) {
              const given = givenOf(element);
              if (given === undefined || !fitsPath(resource, given)) continue;
              if (store.get(resource.key, scope, String(given)) || chosen?.has(String(given))) return conflict(operation, `${singularOf(resource.name)} ${String(given)} already exists in ${resource.collectionPath}; nothing was stored.`);
              if (sent.records.length > 1) (chosen ??= new Set()).add(String(given));
            }
          }
          // One of each per record sent, sized so (a list grown from empty takes room for 17).
          const records: StoredRecord[] = new Array<StoredRecord>(sent.records.length);
          // The key each record is kept under, for an answer that names it where the record has no id field (namedByParam).
          const keys: string[] = new Array<string>(sent.records.length);
          // How many records were created, and the first one's id (the Location of a create of one).
          let created = 0;
          let firstCreated = '';
          // By index, with no entry made per record as `entries()` makes.
          for (let at = 0; at < sent.records.length; at += 1) {
            const element = sent.records[at];
            // A create-or-update (Xero's `updateOrCreateItems`) updates the record each element's id names, as `update` does.
            const heldAs = role === 'createOrUpdate' ? givenOf(element) : undefined;
            const held = heldAs !== undefined ? store.get(resource.key, scope, String(heldAs)) : undefined;
            if (held) {
              const id = String(givenOf(element));
              const record = makeRecord(resource, mergePatch(held, element), id, serverOwned(resource, held));
              const refused = write(operation, store, { kind: 'update', resource, scope, id, before: held, after: record });
              if (refused) return refused;
              records[at] = record;
              keys[at] = id;
              continue;
            }
            const given = givenOf(element);
            // The client's own id when it is free and one the item path accepts (`orderId: 1..10`); else the mock's.
            const replaced = given !== undefined && fitsPath(resource, given) && !refusable ? store.get(resource.key, scope, String(given)) : undefined;
            const chosen = given !== undefined && fitsPath(resource, given) && (replaced || !store.get(resource.key, scope, String(given))) ? String(given) : newId(resource, store, scope);
            if (chosen === undefined) return conflict(operation, `${resource.collectionPath} has no free id left that its schemas allow; nothing was stored.`);
            const record = makeRecord(resource, element, chosen, replaced ? serverOwned(resource, replaced) : undefined);
            // The record's key as its schema let it be answered (`mycompany` stored as `custom:mycompany`): the record is
            // kept under that one, so it is read back at the path its answer names, not at the word its client sent.
            const answeredKey = resource.idField && !replaced ? record[resource.idField] : undefined;
            // A key the client named is followed only where the fitted one still holds its word (makeRecord keeps the
            // key where the fit failed: keyKept); one of the mock's own, wherever the schema let it be answered.
            const rekeyed = (typeof answeredKey === 'string' || typeof answeredKey === 'number') && String(answeredKey) !== chosen && (given === undefined || String(answeredKey).includes(chosen)) && fitsPath(resource, answeredKey) ? String(answeredKey) : undefined;
            // Held already (the same word sent twice): the conflict a create that refuses taken keys answers.
            if (rekeyed !== undefined && store.get(resource.key, scope, rekeyed) && given !== undefined && refusable) return conflict(operation, `${singularOf(resource.name)} ${rekeyed} already exists in ${resource.collectionPath}; nothing was stored.`);
            const id = rekeyed !== undefined && !store.get(resource.key, scope, rekeyed) ? rekeyed : chosen;
            const refused = write(operation, store, replaced ? { kind: 'update', resource, scope, id, before: replaced, after: record } : { kind: 'create', resource, scope, id, after: record });
            if (refused) return refused;
            records[at] = record;
            keys[at] = id;
            if (created === 0) firstCreated = id;
            created += 1;
          }
          // Location names the one record created (RFC 9110 §10.2.2); a batch that made several has no one to name.
          const location = created === 1 && records.length === 1 && !resource.itemless ? { location: locationOf(resource, input, firstCreated) } : undefined;
          return okAll(created > 0 ? createdStatus : updatedStatus, records, location, sent.records, keys);
        });
      }
      case 'read': {
        // The status and the answer made once, not a list and a function made on every read.
        const status = successStatus(operation, [200]);
        const answer = (_store: GenericStore, _scope: string, id: string, record: StoredRecord): HandlerResult => ok(status, record, undefined, undefined, id);
        return (input) => held(resource, input, answer);
      }
      case 'replace': {
        const createdStatus = successStatus(operation, [201, 200]);
        const replacedStatus = successStatus(operation, [200, 204]);
        return inTurn((input, store) => {
          const missing = missingParent(resource, store, input);
          if (missing) return missing;
          const scope = scopeOf(resource, input);
          const id = idText(resource, input);
          const existing = store.get(resource.key, scope, id);
          if (!existing && !resource.upsert) return notFound(resource, id);
          const sent = sentRecords(operation, resource, knownMembers(operation, input.body));
          if ('refused' in sent) return sent.refused;
          // One record at an item path: the first of an envelope's (`{ Items: [ {...} ] }`).
          const [body] = sent.records;
          // A replace keeps only what the server owns (the id, readOnly fields, the creation time): the rest is the body.
          const record = makeRecord(resource, body, id, existing ? serverOwned(resource, existing) : undefined);
          const refused = write(operation, store, existing ? { kind: 'update', resource, scope, id, before: existing, after: record } : { kind: 'create', resource, scope, id, after: record });
          if (refused) return refused;
          if (!existing) return ok(createdStatus, record, { location: locationOf(resource, input, id) }, body, id);
          return ok(replacedStatus, record, undefined, body, id);
        });
      }
      case 'update': {
        const status = successStatus(operation, [200, 204]);
        return inTurn((input) =>
          held(resource, input, (store, scope, id, existing) => {
            const sent = sentRecords(operation, resource, knownMembers(operation, input.body));
            if ('refused' in sent) return sent.refused;
            // One record at an item path (Xero's `POST /Items/{ItemID}`): the first of an envelope's.
            const [patch] = sent.records;
            // The patched record replaces the old one: a member the patch removed (null) must not come back from it.
            const record = makeRecord(resource, nullsKept(operation, resource, patch, mergePatch(existing, patch)), id, serverOwned(resource, existing));
            return write(operation, store, { kind: 'update', resource, scope, id, before: existing, after: record }) ?? ok(status, record, undefined, patch, id);
          }),
        );
      }
      default: {
        const status = successStatus(operation, [204, 200, 202]);
        const remove = (store: GenericStore, scope: string, id: string, existing: StoredRecord): HandlerResult => write(operation, store, { kind: 'delete', resource, scope, id, before: existing }) ?? ok(status, existing, undefined, undefined, id);
        return inTurn((input) => held(resource, input, remove));
      }
    }
  };

  /**
   * An operation that is not CRUD: its example, else a value of its schema, generated once per operation and seed.
   * Under a record's path (`/reports/{id}/export`) it answers only while that record exists: else the record's 404.
   */
  const statelessHandler = (operation: Operation): BoundHandler => {
    const answers = exampleHandler(operation);
    return resources.singletons.has(operation.pathTemplate) ? singletonHandler(operation, answers) : answers;
  };

  /**
   * One record at a path of no collection (infer.ts `singletons`): what a PUT sent there, kept per session store and
   * concrete path, is what its GET answers (over the GET's own example, where the GET's schema holds it), a PATCH
   * merges into it (RFC 7396), a DELETE forgets it. Not in the state export: it has no collection to be listed in.
   */
  const singletonHandler = (operation: Operation, answers: BoundHandler): BoundHandler => {
    const names = [...operation.pathTemplate.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1]!);
    const keyOf = (input: OperationInput): string => [operation.pathTemplate, ...names.map((name) => pathValue(input, name))].join('\u0000');
    const keptIn = (input: OperationInput): Map<string, StoredRecord> => {
      const store = registry.get(input.session);
      let kept = singletons.get(store);
      if (!kept) singletons.set(store, (kept = new Map()));
      return kept;
    };
    return (input) => {
      const answer = answers(input);
      if (!('status' in answer) || answer.status >= 300) return answer;
      const kept = keptIn(input);
      const key = keyOf(input);
      switch (operation.method) {
        case 'get': {
          const record = kept.get(key);
          return record ? withEchoAnswer(operation, answer, record) : answer;
        }
        case 'put':
          if (isObject(input.body)) keep(kept, key, immutableJson(input.body));
          return answer;
        case 'patch': {
          const base = kept.get(key);
          if (isObject(input.body) && base) keep(kept, key, immutableJson(mergePatch(base, input.body) as StoredRecord));
          return answer;
        }
        case 'delete':
          kept.delete(key);
          return answer;
        default:
          return answer;
      }
    };
  };
  /** Each session store's singletons (a reset store is a new object: its singletons go with it). */
  const singletons = new WeakMap<GenericStore, Map<string, StoredRecord>>();
  /**
   * Kept newest last; past MAX_SINGLETONS paths (a client writing to ever new ones: `/a/{x}/{y}` takes any text) the
   * oldest is forgotten, so a store's memory stays bounded beside the session memory budget, which counts records.
   */
  const keep = (kept: Map<string, StoredRecord>, key: string, record: StoredRecord): void => {
    kept.delete(key);
    kept.set(key, record);
    if (kept.size > MAX_SINGLETONS) kept.delete(kept.keys().next().value!);
  };

  /** The 404 of the record an operation's path extends (ownerOf), where no record has its id; undefined when it exists. */
  const ownerMissing = (owner: NonNullable<ReturnType<typeof ownerOf>>, store: GenericStore, input: OperationInput): HandlerResult | undefined => {
    // By position: the operation may call the owner's id otherwise (`{paymentInstrumentId}` under `/paymentInstruments/{id}`).
    const values = owner.params.map((name) => pathValue(input, name));
    const id = values[values.length - 1] ?? '';
    return store.get(owner.resource.key, values.slice(0, -1).join('/'), id) ? undefined : notFound(owner.resource, id);
  };

  /** An operation's example answer, with what its client sent echoed where the answer declares it. */
  const exampleHandler = (operation: Operation): BoundHandler => {
    let answer: HandlerResult | undefined;
    const owner = ownerOf(operation, resources.resources);
    const named = owner ? undefined : namedResourceOf(operation, resources.resources);
    return (input) => {
      const absent = owner ? ownerMissing(owner, registry.get(input.session), input) : undefined;
      if (absent) return absent;
      if (named && !registry.get(input.session).get(named.resource.key, '', pathValue(input, named.param))) return notFound(named.resource, pathValue(input, named.param));
      if (answer) return withEchoAnswer(operation, answer, input.body);
      // An operation that documents no 2xx but a redirect (an OAuth `authorize`: 302 only) answers that redirect; one
      // that documents neither answers its `default` as a 200, else the first answer it documents (as Prism does).
      const status = successStatus(operation, [200, 201, 202, 204]) ?? redirectStatus(operation) ?? (operation.responses.has('default') ? 200 : firstDocumentedStatus(operation)) ?? 200;
      const media = jsonMedia(responseFor(operation, status)?.content ?? []);
      if (!media) return (answer = { status });
      const schema = media.schema ?? {};
      const own = generatorFor(seed ^ hash(operation.operationId));
      const attempts = [0, 1, 2].map((variant) => own.attempt(schema, 'response', variant, 0, '', answerSpot(operation, status, media.mediaType)));
      const candidates: unknown[] = [...media.examples.values(), ...attempts.flatMap((attempt) => (attempt.ok ? [attempt.value] : []))];
      // No example, and no value within the budget (start-up said so): a clear Error naming the spot, never an invalid answer.
      const [first] = attempts;
      if (candidates.length === 0 && first && !first.ok) return (answer = cannotAnswer(errors, operation, first.why));
      let body: unknown;
      try {
        body = candidates.find((candidate) => valid(schema, candidate)) ?? repair(candidates[0], schema, own, 'response');
      } catch (error) {
        // A schema that refers to itself with no value in between: no value can be judged. The answer guard declares
        // the refusal (answer-guard.ts, provedOrEndless); nothing is kept to answer again.
        if (!(error instanceof RangeError)) throw error;
        return { status };
      }
      // An immutable copy (not the document's own example object): its text is kept and its check remembered.
      answer = { status, body: immutableJson(body) };
      return withEchoAnswer(operation, answer, input.body);
    };
  };

  /**
   * What a client sent, in the answer where the answer's schema declares the same field and the value the mock
   * has lacks it or is its own invention: an action or a create the mock keeps no record of (`POST /sessions`)
   * answers with the `shopperReference` it was given, not its example's; a create whose answer declares more than
   * the record (`legalEntityId`) answers it too. Never a writeOnly field; only when the result still validates.
   */
  const withEcho = (operation: Operation, status: number, value: StoredRecord, sent: unknown, overwrite = false): StoredRecord => {
    if (!isObject(sent)) return value;
    const { recordSchema: record, recordProperties: declared } = planOf(operation, status);
    if (!record || !declared) return value;
    // A member the record holds as sent (the usual create) is looked at no further: no entries array, no schema read.
    // Made only when a member echoes (a create that keeps every member as sent makes none).
    let echoes: [string, unknown][] | undefined;
    // for-in, not Object.keys: no list made per write (parsed JSON is a plain object, nothing enumerable inherited).
    for (const name in sent) {
      const field = sent[name];
      if (value[name] === field) continue;
      const property = declared.get(name);
      if (property !== undefined && !mergeAllOf(property).writeOnly && (overwrite || !Object.hasOwn(value, name) || refitted.get(value)?.has(name) === true)) (echoes ??= []).push([name, field]);
    }
    if (echoes === undefined) return value;
    // A field the answer bounds more tightly than the request (a longer text, another pattern) stays as it was; the
    // others echo. What else the answer lacks (a required field the request has no word for) conform() fills later.
    const all: JsonObject = { ...value, ...Object.fromEntries(echoes) };
    const brokenIn = (candidate: JsonObject): Set<string> => brokenMembers(problems(record, candidate));
    let broken = brokenIn(all);
    // A value the answer types otherwise (a `date` sent, a `date-time` answered; a number sent, its text answered)
    // echoes converted, where the conversion keeps its meaning and fits; else what the mock had stays.
    let converted = false;
    for (const [name, field] of echoes) {
      const property = broken.has(name) ? declared.get(name) : undefined;
      const other = property ? convertedEcho(field, mergeAllOf(property)) : undefined;
      if (other !== undefined) (all[name] = other), (converted = true);
    }
    if (converted) broken = brokenIn(all);
    for (const [name] of echoes) if (broken.has(name)) all[name] = value[name];
    for (const [name] of echoes) if (all[name] === undefined) delete all[name];
    return all;
  };
  /**
   * The record with its id also under the item path's parameter name, where this answer declares that member and not
   * the record's id field (Mistral's create answers `{object, conversation_id}`, closed, for a conversation read as
   * `{id, ...}` at `/conversations/{conversation_id}`): else the answer's key was invented, the same for every create.
   */
  const namedByParam = (operation: Operation, status: number, resource: Resource, record: StoredRecord, key?: string): StoredRecord => {
    const { idField, idParam } = resource;
    const declared = planOf(operation, status).recordProperties;
    // A record with no id field of its own (its key is in the path only: SendGrid's segments, read as `{name, ...}`)
    // answered where the answer requires one (`allOf [{id: number, required}, Segment]`): the key it is kept under,
    // not a number drawn afresh, the same for every record and read back nowhere.
    const member = !idField && declared ? (declared.has('id') ? 'id' : declared.has(idParam) ? idParam : undefined) : undefined;
    if (member !== undefined && key !== undefined && !Object.hasOwn(record, member)) return { ...record, [member]: typedKey(key, mergeAllOf(declared!.get(member)!)) };
    if (!idField || idParam === idField || !Object.hasOwn(record, idField) || Object.hasOwn(record, idParam)) return record;
    if (!declared || declared.has(idField) || !declared.has(idParam)) return record;
    const property = mergeAllOf(declared.get(idParam)!);
    const id = record[idField];
    // The member's type says how the id reads there: a number's text where it is a string, and the reverse.
    const value = typeOf(property) === 'string' ? String(id) : (typeOf(property) === 'integer' || typeOf(property) === 'number') && typeof id === 'string' && /^-?\d+$/.test(id) ? Number(id) : id;
    return { ...record, [idParam]: value };
  };

  const withEchoAnswer = (operation: Operation, answer: HandlerResult, sent: unknown): HandlerResult => {
    if (!('body' in answer) || !isObject(answer.body) || !isObject(sent)) return answer;
    const body = withEcho(operation, answer.status, answer.body, sent, true);
    return body === answer.body ? answer : { ...answer, body };
  };

  const ownHandlers = new Map<string, BoundHandler>();
  for (const operation of contract.operations) {
    const found = resources.roles.get(operation.operationId);
    ownHandlers.set(operation.operationId, found ? roleHandler(operation, found.resource, found.role) : statelessHandler(operation));
  }
  // A behaviour module's hooks around them (--behaviour), checked against the document now.
  const handlers = settings.behaviour ? withHooks(settings.behaviour.module, settings.behaviour.file, contract.operations, ownHandlers, registry, resources) : ownHandlers;

  const carried = settings.carried ? carryOver(settings.carried) : undefined;

  // The Location a create of a top-level collection answers is its item path around the id (locationOf): the guard may
  // take one as checked when another of the same template passed (answer-guard.ts templatedHeader).
  const locationTemplate = (operation: Operation): TemplatedHeader | undefined => {
    const resource = resources.roles.get(operation.operationId)?.resource;
    if (!resource || resource.scopeParams.length > 0) return undefined;
    const parts = partsOf(resource);
    return parts.length === 2 ? { name: 'location', prefix: parts[0]!, suffix: parts[1]! } : undefined;
  };
  const guard = createAnswerGuard({ compiled, planOf, errors, seed, generatorFor, templatedHeader: locationTemplate });
  // Every documented answer proved after start-up (proof-sweep.ts); what cannot be made is said when it is done.
  const sweep = settings.proveInBackground ? sweepProofs(contract.operations, guard.prove, (found) => { for (const line of unanswerableLines(found)) settings.announce?.(line); }) : undefined;
  const proofs = (): ProofState => sweep?.state() ?? { proved: 0, operations: contract.operations.length, unanswerable: [] };

  /**
   * Loads the data a previous engine held into this one's stores when every collection is still one of this
   * document's and every record still satisfies its record schema; else keeps the initial data and says what did not
   * fit (the first collection or record, with the document's words).
   */
  function carryOver(data: CarriedData): CarriedVerdict {
    const byKey = new Map(resources.resources.map((resource) => [resource.key, resource]));
    for (const { session, state } of data.stores) {
      const where = session === undefined ? 'the default store' : `session ${session}`;
      for (const [key, scopes] of Object.entries(state)) {
        const resource = byKey.get(key);
        if (!resource) return { kept: false, why: `${where} holds records of ${key}, which is no longer a collection of the document` };
        if (!resource.recordSchema) continue;
        for (const [scope, records] of Object.entries(scopes)) {
          for (const [index, record] of records.entries()) {
            const [problem] = compiled.validate(resource.recordSchema, record, 'response');
            if (problem) return { kept: false, why: `${where}: ${key}${scope === '' ? '' : ` (${scope})`} record ${index}${problem.pointer} ${problem.message}` };
          }
        }
      }
    }
    for (const { session, state } of data.stores) {
      const refused = registry.load(state, session);
      if (refused !== undefined) {
        // Nothing half carried: every store starts again from the initial data.
        registry.reset();
        return { kept: false, why: refused };
      }
    }
    return { kept: true };
  }

  /** How the fixture records break this document's record schemas as their files have them: computed once, when asked (watch.ts). */
  let fixtureProblems: readonly FixtureProblem[] | undefined;
  const problemsOfFixtures = (): readonly FixtureProblem[] => {
    if (fixtureProblems) return fixtureProblems;
    const found: FixtureProblem[] = [];
    const files = settings.fixtures === 'none' ? undefined : settings.fixtures;
    const schemas = Object.entries(contract.document.components?.schemas ?? {});
    for (const resource of resources.resources) {
      const records = files?.[resource.name];
      if (!resource.recordSchema || resource.scopeParams.length > 0 || !Array.isArray(records)) continue;
      const schema = schemas.find(([, s]) => s === resource.recordSchema)?.[0];
      const idField = resource.idField;
      records.forEach((record: unknown, index) => {
        const id = idField !== undefined && isObject(record) && record[idField] !== undefined ? { field: idField, value: record[idField] } : undefined;
        for (const d of compiled.validate(resource.recordSchema!, record, 'response')) {
          found.push({ file: `${resource.name}.json`, index, ...(id ? { id } : {}), ...(schema !== undefined ? { schema } : {}), pointer: d.pointer, keyword: d.keyword, message: d.message });
        }
      });
    }
    return (fixtureProblems = found);
  };

  return {
    resources,
    proofs,
    fixtureProblems: problemsOfFixtures,
    carry: () => ({ stores: [{ state: registry.get().snapshot() }, ...registry.sessions().map((session) => ({ session, state: registry.get(session).snapshot() }))] }),
    ...(carried ? { carried } : {}),
    startBackground: () => sweep?.start(),
    close: () => sweep?.stop(),
    handlers,
    errors,
    conform: guard.conform,
    dropNotice: (session) => registry.dropNotice(session),
    reset: (session) => registry.reset(session),
    forcedMessage: (session, code, id, status) => rules.forcedMessage(code, String(id), status, registry.get(session)),
    admin: (adminSettings) =>
      createGenericAdmin({
        ...adminSettings,
        compiled,
        resources,
        registry,
        idOf: initial.idOf,
        proofs,
        rules: rules.rules.map(describeRule),
        // The stated rules hold every import, in the overlay's shape or not (admin.ts).
        ...(shape ? { shape } : {}),
        stated: rules.rules,
        ...(complete ? { complete } : {}),
      }),
  };
}

/**
 * The member of a create's body that names the record where the body has no id field: the item path parameter itself,
 * where the record's own schema has no member of that name (OpenAI's `POST /organization/groups/{group_id}/users
 * {user_id}`, read at `.../users/{user_id}` as `{id, name, ...}`: the membership was kept under an id of the mock's own,
 * `57`, and the user's read and delete were 404); else its last word, where the parameter has several and the record
 * has no member of that name either (SendGrid's `POST /ips/pools {name}`, read at `/ips/pools/{pool_name}` as
 * `{pool_name, ips}`). Never `id` (the record's own id field says that), never a member the record keeps apart.
 */
function memberNamingRecord(resource: Resource): string | undefined {
  if (!resource.recordSchema) return undefined;
  const properties = propertiesOf(resource.recordSchema);
  const own = resource.idParam;
  if (own !== 'id' && own !== resource.idField && !properties.has(own)) return own;
  const last = lastOfSeveralWords(own);
  if (last === undefined || last === 'id' || last === resource.idField?.toLowerCase()) return undefined;
  return properties.has(last) ? undefined : last;
}

/** The two fields a path parameter named `X_or_Y` or `xOrY` names (`type_id_or_name` → id, name), each by its last word. */
function aliasFields(parameter: string): readonly string[] {
  const match = /^(.+?)(?:_or_|Or(?=[A-Z]))(.+)$/.exec(parameter);
  if (!match) return [];
  const lastWord = (part: string): string => wordsOf(part).at(-1) ?? part;
  return [lastWord(match[1]!), lastWord(match[2]!)];
}

/** A key as the member that answers it is typed: a number where it is a number and the key is one, else its text. */
function typedKey(key: string, property: Schema): string | number {
  const type = typeOf(property);
  return (type === 'integer' || type === 'number') && /^-?\d+(\.\d+)?$/.test(key) ? Number(key) : key;
}

/** Whether an operation's request body is an object with `member` as an object member: the record sent in its envelope. */
function sendsEnvelope(operation: Operation, member: string): boolean {
  const schema = requestSchema(operation);
  const property = schema ? propertiesOf(mergeAllOf(schema)).get(member) : undefined;
  return property !== undefined && (typeOf(mergeAllOf(property)) === 'object' || propertiesOf(property).size > 0);
}

/** The success statuses a create prefers when it made a record, and when it only updated (successStatus). */
/** What a create copies before the client's fields: nothing. */
const NO_FIELDS: Readonly<Record<string, unknown>> = Object.freeze({});
const CREATED_FIRST = [201, 200];
const OK_FIRST = [200, 201];

/** Whether every member of a body is one of `known` (a loop, not a closure a write: knownMembers). */
function everyKnown(body: JsonObject, known: ReadonlySet<string>): boolean {
  for (const name in body) if (!known.has(name)) return false;
  return true;
}

/** A handler's answer: the status, and the body and headers where there are any (built with no spread of either). */
function answered(status: number, body: unknown, headers: Record<string, string> | undefined): HandlerResult {
  if (body === undefined) return headers ? { status, headers } : { status };
  return headers ? { status, body, headers } : { status, body };
}

/** Whether a writing handler's result keeps its writes: an answer below 400 (engine.ts inTurn). */
function keptWhenAnswered(result: HandlerResult): boolean {
  return 'status' in result && result.status < 400;
}

/** The statuses a conflict prefers, the first the operation documents (as behaviour/rule-book.ts CONFLICT). */
const CONFLICT_STATUSES = [409, 422, 400];

/** How many draws a generated id gets before its collection is taken as full (engine.ts newId). */
const MAX_ID_DRAWS = 32;
/** How many ids of a bounded integer range newId looks through for a free one. */
const MAX_ID_SCAN = 10_000;

/** How many records at paths of no collection one store keeps (engine.ts singletonHandler). */
const MAX_SINGLETONS = 1_000;

/** How many list answers an operation keeps per store while the store does not change (scopes and queries). */
const KEPT_LIST_ANSWERS = 32;

/**
 * The code a document's error catalogue (`x-error-codes`, the convention the runner reads too) gives a status for a
 * resource: the one of that status that names the resource (`INVENTORY_ITEM_NOT_FOUND` for `/store/inventory`,
 * `PET_NOT_FOUND` for `/pets`), the `_NOT_FOUND` one first; undefined for a document without a catalogue.
 */
function catalogueCode(contract: Contract, status: number, resource: Resource): string | undefined {
  const words = [resource.name, singularOf(resource.name)].map((word) => word.replace(/[^A-Za-z0-9]+/g, '_').toUpperCase());
  const named = [...contract.errorCodes.values()].filter((spec) => spec.status === status && words.some((word) => word !== '' && spec.code.startsWith(word)));
  return (named.find((spec) => spec.code.endsWith('_NOT_FOUND')) ?? named[0])?.code;
}

/** The lowest 3xx an operation documents (OAS 3.0.3 §4.7.16.2: exact codes, or `3XX`), when it documents one. */
function redirectStatus(operation: Operation): number | undefined {
  const codes = [...operation.responses.keys()].filter((key) => /^3\d\d$/.test(key)).map(Number).sort((a, b) => a - b);
  return codes[0] ?? (operation.responses.has('3XX') ? 302 : undefined);
}

/**
 * The first status an operation documents, in the document's order (`4XX` as 400): the only answers it allows when it
 * documents no success (PagerDuty's `GET /oauth_delegations/revocation_requests/status`: 400, 401, 403, 404, 429).
 */
function firstDocumentedStatus(operation: Operation): number | undefined {
  for (const key of operation.responses.keys()) {
    if (/^[1-5]\d\d$/.test(key)) return Number(key);
    if (/^[1-5]XX$/i.test(key)) return Number(key[0]) * 100;
  }
  return undefined;
}

/** The top-level members a validation's diagnostics point into. */
function brokenMembers(diagnostics: readonly { readonly pointer: string }[]): Set<string> {
  return new Set(diagnostics.map((d) => decodeURIComponent(d.pointer.split('/')[1] ?? '').replace(/~1/g, '/').replace(/~0/g, '~')));
}

/**
 * A sent leaf in the type or format a field declares, when the value is not already of it and a conversion keeps
 * its meaning: a date as that day's date-time (and back), a number or boolean as its text, a numeric text as its
 * number. Undefined when no conversion is needed or none applies.
 */
function convertedEcho(value: unknown, property: Schema): unknown {
  // Asked of every field a write sends: nothing is allocated on the way to "no conversion" (issue 34, point 1).
  if (typeof value === 'string' && property.format === 'date-time' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value}T00:00:00Z`;
  if (typeof value === 'string' && property.format === 'date' && /^\d{4}-\d{2}-\d{2}T/.test(value)) return value.slice(0, 10);
  // Already of a type the field declares.
  if (typeof value === 'boolean' ? declaresType(property, 'boolean') : typeof value === 'number' ? declaresType(property, 'number') || (Number.isInteger(value) && declaresType(property, 'integer')) : typeof value === 'string' && declaresType(property, 'string')) return undefined;
  if ((typeof value === 'number' || typeof value === 'boolean') && declaresType(property, 'string')) return String(value);
  if (typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) && (declaresType(property, 'number') || (declaresType(property, 'integer') && /^-?\d+$/.test(value)))) return Number(value);
  return undefined;
}

/** Whether a schema's `type` is `type` or a list that holds it. */
function declaresType(property: Schema, type: string): boolean {
  return Array.isArray(property.type) ? (property.type as unknown[]).includes(type) : property.type === type;
}

/** Whether a client's id is one the item path's parameter accepts: of the resource's kind and within its bounds. */
function fitsPath(resource: Resource, id: string | number): boolean {
  if (resource.idKind === 'string') return typeof id === 'string' && id !== '' && !id.includes('/');
  if (resource.idKind === 'uuid') return typeof id === 'string' && /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
  const n = Number(id);
  return Number.isSafeInteger(n) && (resource.idMinimum === undefined || n >= resource.idMinimum) && (resource.idMaximum === undefined || n <= resource.idMaximum);
}

/**
 * A patch's `null` where the record's member may hold null, set rather than removed, unless the operation takes a
 * merge patch: `null` removes a member only in RFC 7396's media type. In a plain `application/json` PATCH it is a value
 * like any other where the schema allows it (WorkOS's `description: [string, "null"]`: a PATCH to null kept the old
 * text). A member that cannot be null is still removed, as before.
 */
function nullsKept(operation: Operation, resource: Resource, patch: unknown, merged: unknown): unknown {
  if (!isObject(patch) || !isObject(merged) || !resource.recordSchema) return merged;
  if ((operation.requestBody?.content ?? []).some((media) => /merge-patch/i.test(media.mediaType))) return merged;
  const properties = propertiesOf(resource.recordSchema);
  let out: JsonObject | undefined;
  for (const [name, value] of Object.entries(patch)) {
    const property = properties.get(name);
    if (value !== null || property === undefined || !allowsNull(mergeAllOf(property))) continue;
    out ??= { ...merged };
    out[name] = null;
  }
  return out ?? merged;
}

/** RFC 7396 JSON Merge Patch: objects merge member by member, `null` removes a member, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete out[name];
    else out[name] = mergePatch(out[name], value);
  }
  return out;
}

/** What a replace keeps of the record it replaces: the id, the readOnly fields and the creation time. */
function serverOwned(resource: Resource, existing: StoredRecord): StoredRecord {
  const kept: JsonObject = {};
  const properties = resource.recordSchema ? propertiesOf(resource.recordSchema) : new Map<string, Schema>();
  for (const [name, value] of Object.entries(existing)) {
    const property = properties.get(name);
    if (name === resource.idField || (property && (mergeAllOf(property).readOnly || isCreationTimeName(name)))) kept[name] = value;
  }
  return kept;
}




