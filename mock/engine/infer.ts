/**
 * Which parts of a document are stateful resources (issue 22, point 1): a pure function from the Contract to a
 * resource map, with no HTTP and no data. A collection path (`/things`) and its item path (`/things/{thingId}`)
 * make a resource; a resource under another one's item (`/a/{aId}/things/{id}`) is scoped to its parent's id.
 * The identity field is matched to the item's path parameter through `allOf`/`oneOf`/`anyOf`; the id kind comes
 * from that parameter's schema. Every other operation is stateless: it answers from examples or its schema.
 *
 * A user corrects an inference without code (README "Any document"), in the document or in an overlay:
 *   `x-mock-id: field` on a path item or a schema: the identity field;
 *   `x-mock-collection: false` on a path item: not a resource (its operations are stateless);
 *   `x-mock-stateless: true` on an operation: answered from examples, never from the store.
 */
import type { Contract, Operation, ParameterSpec } from '../../src/contract/index.js';
import { asSchema, extension, isObject, itemsOf, mergeAllOf, propertiesOf, requestSchema, responseSchema, successStatus, typeOf, type Schema } from './schemas.js';
import { lastOfSeveralWords } from '../../src/parameter-words.js';

export type IdKind = 'integer' | 'uuid' | 'string';
/**
 * `createOrUpdate`: the collection's POST beside a PUT that creates (Xero's `updateOrCreateItems`): each record it is sent
 * updates the one its id field names, or is created.
 */
export type Role = 'list' | 'create' | 'createOrUpdate' | 'read' | 'replace' | 'update' | 'delete';

/** Where a list's records, total and next cursor sit in its answer. */
export type ListShape =
  | { readonly kind: 'array' }
  | { readonly kind: 'envelope'; readonly itemsKey: string; readonly totalKey?: string; readonly pagesKey?: string; readonly cursorKey?: string; readonly schema: Schema };

/** How a list operation pages, by the query parameters it declares. */
export interface Paging {
  readonly limit?: string;
  readonly offset?: string;
  readonly page?: string;
  readonly cursor?: string;
}

export interface ListSpec {
  readonly operationId: string;
  readonly shape: ListShape;
  readonly paging: Paging;
  /** Query parameter → the record field it filters by (same name). */
  readonly filters: ReadonlyMap<string, string>;
}

export interface Resource {
  /** The collection path template, unique: the resource's key in the map, the state export and the log. */
  readonly key: string;
  /** The last literal segment (`things`): the fixtures file name (`things.json`) for a top-level resource. */
  readonly name: string;
  /** A format suffix both paths carry (`/Calls.json`, `/Calls/{Sid}.json`), which a parent's item path carries too. */
  readonly suffix?: string;
  readonly collectionPath: string;
  readonly itemPath: string;
  /** The item path's last parameter: the id. */
  readonly idParam: string;
  /** The parameters before it (`aId` of `/a/{aId}/things/{id}`): a record lives in its parent's scope. */
  readonly scopeParams: readonly string[];
  /** The record field holding the id, when the record has one. */
  readonly idField?: string;
  readonly idKind: IdKind;
  /** The id parameter's schema when it constrains a string id (a pattern, a format, lengths): generated ids keep to it. */
  readonly idSchema?: Schema;
  /** The id parameter's bounds, when it has them: generated ids stay inside. */
  readonly idMinimum?: number;
  readonly idMaximum?: number;
  /** Whether the record stores the id as a number (its field is an integer/number). */
  readonly idIsNumber: boolean;
  /** The record as answered (response view). */
  readonly recordSchema?: Schema;
  /** Set when an item answer wraps the record (`{ data: {...} }`). */
  readonly itemEnvelope?: string;
  /**
   * Set when records travel in an envelope with one array member (Xero's `{ "Items": [ {...} ] }`): a read answers
   * the record in it, a create or update may send several.
   */
  readonly batchKey?: string;
  readonly roles: Readonly<Partial<Record<Role, string>>>;
  /** `PUT` on an item creates it when absent (the document has no create on the collection, or 201 on the PUT). */
  readonly upsert: boolean;
  readonly list?: ListSpec;
  /** What the map printed at start-up says about this resource's inference. */
  readonly why: string;
  /**
   * The document has no item path for these records (a list and a create on one path, nothing under it): `itemPath`
   * is the one a record would have, named by its id field, which no request reaches and no Location names.
   */
  readonly itemless?: true;
}

export interface ResourceMap {
  readonly resources: readonly Resource[];
  /** operationId → its resource and role; operations absent here are stateless. */
  readonly roles: ReadonlyMap<string, { readonly resource: Resource; readonly role: Role }>;
  /**
   * Path templates of one record each, in no collection: a PUT of an object and a GET answering one, stateless
   * (a settings document, `/users/{id}/preferences`, `/parameter-examples/{a}/{b}`). What a PUT sends there is
   * kept per session and concrete path, and its GET answers it (engine.ts); a DELETE forgets it.
   */
  readonly singletons: ReadonlySet<string>;
}

/** A user's corrections from an overlay file, in the same words as the `x-mock-*` extensions. */
export interface MockOverlay {
  /** Path template → `{ "x-mock-id": "field", "x-mock-collection": false }`. */
  readonly paths?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** operationId → `{ "x-mock-stateless": true }`. */
  readonly operations?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** A behaviour module (`behaviour: ./rules.mjs`), resolved against the overlay file's folder. */
  readonly behaviour?: string;
  /** The shape `GET /__mock/state` exports and `PUT /__mock/state` takes (state-shape.ts): member name → collection. */
  readonly state?: Readonly<Record<string, unknown>>;
}

const ENVELOPE_KEYS = ['data', 'items', 'results', 'records', 'entries', 'values', 'content', 'list', 'rows', 'nodes', 'elements', 'objects'];
const TOTAL_KEYS = ['total', 'totalCount', 'total_count', 'totalItems', 'total_items', 'itemsTotal', 'items_total', 'totalResults', 'total_results', 'totalElements', 'count', 'size'];
const PAGES_KEYS = ['totalPages', 'total_pages', 'pagesTotal', 'pages_total', 'pageCount', 'page_count'];
const CURSOR_KEYS = ['nextCursor', 'next_cursor', 'cursor', 'next', 'nextPageToken', 'next_page_token', 'nextToken', 'next_token', 'after'];
const LIMIT_PARAMS = ['limit', 'per_page', 'perPage', 'page_size', 'pageSize', 'size', 'max_results', 'maxResults', 'top', '$top', 'count', 'first'];
const OFFSET_PARAMS = ['offset', 'skip', '$skip', 'start', 'from'];
const PAGE_PARAMS = ['page', 'page_number', 'pageNumber', 'pageIndex'];
const CURSOR_PARAMS = ['cursor', 'after', 'page_token', 'pageToken', 'starting_after', 'continuation', 'next', 'token', 'marker'];

/**
 * The name of a collection at the document's root (`/` and `/{id}`): the last segment of its server's path, where the
 * server names one (Vonage's Applications API serves them under `https://api.nexmo.com/v2/applications`); '' (no
 * collection) otherwise, as `/{id}` alone may be any catch-all.
 */
function rootCollectionName(contract: Contract): string {
  const url = contract.document.servers?.[0]?.url;
  if (typeof url !== 'string') return '';
  const path = url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '').split(/[?#]/)[0] ?? '';
  const last = path.split('/').filter((segment) => segment !== '').pop() ?? '';
  return /^[A-Za-z][\w-]*$/.test(last) ? last : '';
}

export function inferResources(contract: Contract, overlay: MockOverlay = {}): ResourceMap {
  const byPath = new Map<string, Map<string, Operation>>();
  for (const operation of contract.operations) {
    let methods = byPath.get(operation.pathTemplate);
    if (!methods) byPath.set(operation.pathTemplate, (methods = new Map()));
    methods.set(operation.method, operation);
  }
  const pathItem = (template: string): Readonly<Record<string, unknown>> => ({ ...(asRecord(contract.document.paths?.[template]) ?? {}), ...(overlay.paths?.[template] ?? {}) });
  const stateless = (operation: Operation | undefined): Operation | undefined => {
    if (!operation) return undefined;
    const raw = asRecord(asRecord(contract.document.paths?.[operation.pathTemplate])?.[operation.method]);
    const flag = overlay.operations?.[operation.operationId]?.['x-mock-stateless'] ?? raw?.['x-mock-stateless'];
    return flag === true ? undefined : operation;
  };

  // OAS 3.0.3 §4.7.8.1: `/users/{id}` and `/users/{name}` are the same template, which a document must not hold; where
  // one does, a request cannot tell which record it names, so neither is a resource (both answer statelessly).
  const shapes = new Map<string, number>();
  for (const template of byPath.keys()) shapes.set(shapeOf(template), (shapes.get(shapeOf(template)) ?? 0) + 1);
  const resources: Resource[] = [];
  const roles = new Map<string, { resource: Resource; role: Role }>();
  for (const [itemPath, itemMethods] of byPath) {
    if ((shapes.get(shapeOf(itemPath)) ?? 0) > 1) continue;
    const segments = itemPath.split('/');
    const last = segments[segments.length - 1] ?? '';
    // `{Sid}.json` (Twilio, Discourse): the id with a format suffix, its collection `Calls.json` with the same one.
    const idMatch = /^\{([^{}]+)\}(\.[A-Za-z0-9]+)?$/.exec(last);
    const idParam = idMatch?.[1];
    if (idParam === undefined) continue;
    const suffix = idMatch?.[2] ?? '';
    const collectionPath = suffix === '' ? segments.slice(0, -1).join('/') || '/' : `${segments.slice(0, -1).join('/')}${suffix}`;
    const name = collectionPath === '/' ? rootCollectionName(contract) : (collectionPath.split('/').pop() ?? '').slice(0, suffix === '' ? undefined : -suffix.length);
    // `/a/{aId}/{bId}` has no collection segment to name it: not a resource.
    if (name === '' || name.includes('{')) continue;
    if (pathItem(itemPath)['x-mock-collection'] === false || pathItem(collectionPath)['x-mock-collection'] === false) continue;
    const collectionMethods = byPath.get(collectionPath) ?? new Map<string, Operation>();

    const list = stateless(collectionMethods.get('get'));
    const post = stateless(collectionMethods.get('post'));
    const put = stateless(collectionMethods.get('put'));
    // PUT on the collection is the create where the document says so: it documents 201 Created (RFC 9110 §15.3.2),
    // or its operationId or summary says it creates (Xero's `createItems`, "Creates one or more items"). Then the
    // collection's POST, where there is one, creates or updates (Xero's `updateOrCreateItems`), unless its own words
    // say it deletes (Xero's `deleteBankTransfers` is a POST).
    const putCreates = put !== undefined && (put.responses.has('201') || saysCreate(put));
    const create = putCreates ? put : post;
    const postCreatesOrUpdates = putCreates && post && !saysDelete(post) ? post : undefined;
    const read = stateless(itemMethods.get('get'));
    const replace = stateless(itemMethods.get('put'));
    const patch = stateless(itemMethods.get('patch'));
    const remove = stateless(itemMethods.get('delete'));
    const found = recordSchemaOf(name, idParam, read, create, replace, list);
    const kindCreates = suffix === '' ? createsByKind(byPath, collectionPath, name, idParam, found.schema, stateless) : [];
    // A resource someone can read back: an item GET, and a way to make records (or a list that shows them). Without an
    // item GET, a write on the item (PATCH, PUT or DELETE: Adyen's `PATCH /scaDevices/{deviceId}`) beside a create or
    // a list on its collection is a resource too: its ids are the ones those made, and any other id is the 404.
    if (read ? !(create || replace || list || kindCreates.length > 0) : !((replace || patch || remove) && (create || list || kindCreates.length > 0))) continue;

    // An item with no PATCH is updated by its POST (Xero's `updateItem`) when that POST is sent the record or its
    // envelope, and its words do not say it deletes (Xero's `deleteBankTransfer` is sent `{ Status: DELETED }`).
    const itemPost = stateless(itemMethods.get('post'));
    const update = patch ?? (itemPost && !saysDelete(itemPost) && sendsRecord(itemPost, found, read) ? itemPost : undefined);
    const idSpec = (read ?? replace ?? update ?? remove)!.parameters.find((p) => p.in === 'path' && p.name === idParam);
    const scopeParams = [...collectionPath.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!);
    const explicitId = pathItem(itemPath)['x-mock-id'] ?? pathItem(collectionPath)['x-mock-id'] ?? (found.schema ? extension(mergeAllOf(found.schema), 'x-mock-id') : undefined);
    const idField = found.schema ? identityField(found.schema, idParam, name, typeof explicitId === 'string' ? explicitId : undefined) : undefined;
    const fieldSchema = idField && found.schema ? propertiesOf(found.schema).get(idField) : undefined;
    const idKind = idKindOf(idSpec, fieldSchema);
    const createStatus = create ? successStatus(create, [201, 200]) : undefined;
    // A PUT creates at its id where it documents 201, where its words say so ("Create or update", "Upserts"), or where
    // nothing else creates the resource and it documents no 404. One that documents a 404 for an absent id (Lago's
    // "Update a fee") only replaces: creating a fee from a one-field update answered 200 where the document has 404.
    const upsert = replace !== undefined && (replace.responses.has('201') || saysUpsert(replace) || (!create && !replace.responses.has('404')));
    const resource: Resource = {
      key: collectionPath,
      name,
      ...(suffix !== '' ? { suffix } : {}),
      collectionPath,
      itemPath,
      idParam,
      scopeParams,
      ...(idField ? { idField } : {}),
      idKind,
      ...(idSpec && idKind === 'string' && constrainsText(idSpec.schema) ? { idSchema: idSpec.schema } : {}),
      ...(typeof idSpec?.schema.minimum === 'number' ? { idMinimum: idSpec.schema.minimum } : {}),
      ...(typeof idSpec?.schema.maximum === 'number' ? { idMaximum: idSpec.schema.maximum } : {}),
      idIsNumber: fieldSchema ? ['integer', 'number'].includes(typeOf(fieldSchema) ?? '') : idKind === 'integer',
      ...(found.schema ? { recordSchema: found.schema } : {}),
      ...(found.envelope ? { itemEnvelope: found.envelope } : {}),
      ...(found.batchKey ? { batchKey: found.batchKey } : {}),
      roles: {
        ...(list ? { list: list.operationId } : {}),
        ...(create && createStatus !== undefined ? { create: create.operationId } : {}),
        ...(postCreatesOrUpdates && successStatus(postCreatesOrUpdates, [200, 201]) !== undefined ? { createOrUpdate: postCreatesOrUpdates.operationId } : {}),
        ...(read ? { read: read.operationId } : {}),
        ...(replace ? { replace: replace.operationId } : {}),
        ...(update ? { update: update.operationId } : {}),
        ...(remove ? { delete: remove.operationId } : {}),
      },
      upsert,
      ...(list ? { list: listSpec(list, found.schema, found.batchKey) } : {}),
      why: `id ${idField ? `field ${idField}` : 'in the path only'} (${idKind}${typeof explicitId === 'string' ? ', from x-mock-id' : ''})${found.batchKey ? `, records in .${found.batchKey}[]` : ''}${found.envelope ? `, a record in .${found.envelope}` : ''}${kindCreates.length > 0 ? `, also created by ${kindCreates.map((o) => `POST ${o.pathTemplate}`).join(', ')}` : ''}`,
    };
    resources.push(resource);
    for (const [role, operationId] of Object.entries(resource.roles) as [Role, string][]) roles.set(operationId, { resource, role });
    for (const operation of kindCreates) if (!roles.has(operation.operationId)) roles.set(operation.operationId, { resource, role: 'create' });
  }
  for (const [index, resource] of resources.entries()) {
    const elsewhere = createsUnderOthers(byPath, resource, stateless, roles);
    if (elsewhere.length === 0) continue;
    for (const operation of elsewhere) roles.set(operation.operationId, { resource, role: 'create' });
    resources[index] = { ...resource, why: `${resource.why}, created by ${elsewhere.map((o) => `POST ${o.pathTemplate}`).join(', ')}` };
    for (const entry of roles.values()) if (entry.resource === resource) entry.resource = resources[index]!;
  }
  for (const resource of itemlessResources(byPath, pathItem, stateless, roles)) {
    resources.push(resource);
    for (const [role, operationId] of Object.entries(resource.roles) as [Role, string][]) roles.set(operationId, { resource, role });
  }
  resources.sort((a, b) => a.key.localeCompare(b.key));
  const singletons = new Set<string>();
  for (const [template, methods] of byPath) {
    const put = stateless(methods.get('put'));
    const get = stateless(methods.get('get'));
    if (!put || !get || roles.has(put.operationId) || roles.has(get.operationId) || (pathItem(template)['x-mock-collection'] as unknown) === false) continue;
    const sent = requestSchema(put);
    const answered = responseSchema(get, successStatus(get, [200]) ?? 200);
    if (sent && answered && typeOf(sent) === 'object' && typeOf(answered) === 'object') singletons.add(template);
  }
  return { resources, roles, singletons };
}

/**
 * The POSTs on a fixed child of a collection path that each create one kind of its records (Coolify's
 * `POST /applications/dockerimage` and `/applications/public` beside `GET /applications/{uuid}`, with no
 * `POST /applications`): a create by its 201 Created (RFC 9110 §15.3.2) or its own words (`create-public-application`),
 * whose answer is an object carrying the record's identity field (`{ uuid }`). Kept statelessly, the id each answered
 * was a 404 at the item path. Not a child that is a collection itself (`/applications/archived/{id}`), nor one whose
 * words say it deletes, nor an action whose answer names no record (`POST /applications/search`).
 */
function createsByKind(byPath: ReadonlyMap<string, ReadonlyMap<string, Operation>>, collectionPath: string, collection: string, idParam: string, record: Schema | undefined, stateless: (operation: Operation | undefined) => Operation | undefined): Operation[] {
  const found: Operation[] = [];
  const prefix = collectionPath === '/' ? '/' : `${collectionPath}/`;
  for (const [template, methods] of byPath) {
    if (!template.startsWith(prefix) || !/^[^/{}]+$/.test(template.slice(prefix.length))) continue;
    if ([...byPath.keys()].some((other) => other.startsWith(`${template}/`))) continue;
    const post = stateless(methods.get('post'));
    if (post && answersCreated(post, collection, idParam, record)) found.push(post);
  }
  return found;
}

/**
 * Whether a POST creates a record: by its 201 Created or its own words, answering an object with an identity field,
 * and nothing the record does not have (the record itself, or a part of it: Coolify's `{ uuid }`). An answer with
 * members of its own is another thing (OpenAI's `POST /threads/runs` answers a run, not the thread).
 */
function answersCreated(post: Operation, collection: string, idParam: string, record: Schema | undefined): boolean {
  if (saysDelete(post)) return false;
  const status = successStatus(post, [201, 200]);
  if (status === undefined || !(status === 201 || saysCreate(post))) return false;
  const answer = responseSchema(post, status);
  if (answer === undefined || typeOf(answer) !== 'object' || !carriesId(answer, collection, idParam)) return false;
  if (record === undefined || answer === record) return true;
  const members = propertiesOf(record);
  return [...propertiesOf(answer).keys()].every((name) => members.has(name));
}

/**
 * The POSTs that create a top-level resource's records under another record's path, named by the resource's word
 * (Qovery's `POST /project/{projectId}/environment`, 201 with the Environment read at `GET /environment/{environmentId}`,
 * which has no create of its own): a create of that resource, its records read at their own item path. Kept
 * statelessly, the id each answered was a 404 at that path, and no environment ever existed. Not a path that is a
 * collection itself (`/project/{projectId}/environment/{id}`), and only where the answer carries the record's
 * identity field.
 */
function createsUnderOthers(byPath: ReadonlyMap<string, ReadonlyMap<string, Operation>>, resource: Resource, stateless: (operation: Operation | undefined) => Operation | undefined, taken: ReadonlyMap<string, unknown>): Operation[] {
  if (resource.scopeParams.length > 0 || resource.suffix !== undefined || resource.itemless) return [];
  const found: Operation[] = [];
  for (const [template, methods] of byPath) {
    const segments = template.split('/');
    const last = segments[segments.length - 1] ?? '';
    if (!template.includes('{') || last.includes('{') || singularOf(last).toLowerCase() !== singularOf(resource.name).toLowerCase()) continue;
    if ([...byPath.keys()].some((other) => other.startsWith(`${template}/{`))) continue;
    const post = stateless(methods.get('post'));
    if (!post || taken.has(post.operationId) || !answersCreated(post, resource.name, resource.idParam, resource.recordSchema)) continue;
    const answer = responseSchema(post, successStatus(post, [201, 200])!)!;
    if (resource.idField === undefined || propertiesOf(answer).has(resource.idField)) found.push(post);
  }
  return found;
}

/**
 * Collections the document gives no item path: a GET that lists records and a POST that creates one on the same path,
 * and no path below it (Formbricks' `/organizations/{organizationId}/users`: a list `{ data: [user] }` and a create
 * answering 201 with the user). Answered statelessly, a record the create answered was never in the list. Kept here as
 * records whose only ways in are those two: a create by its 201 or its own words, answering an object with an identity
 * field the list's records share; a search or an action on a collection (a 200 answering no record) is left alone.
 */
function itemlessResources(
  byPath: ReadonlyMap<string, ReadonlyMap<string, Operation>>,
  pathItem: (template: string) => Readonly<Record<string, unknown>>,
  stateless: (operation: Operation | undefined) => Operation | undefined,
  taken: ReadonlyMap<string, unknown>,
): Resource[] {
  const found: Resource[] = [];
  for (const [collectionPath, methods] of byPath) {
    const name = collectionPath.split('/').pop() ?? '';
    if (!/^[A-Za-z][\w-]*$/.test(name) || pathItem(collectionPath)['x-mock-collection'] === false) continue;
    if ([...byPath.keys()].some((other) => other.startsWith(`${collectionPath}/`))) continue;
    const list = stateless(methods.get('get'));
    const create = stateless(methods.get('post'));
    if (!list || !create || taken.has(list.operationId) || taken.has(create.operationId) || saysDelete(create)) continue;
    const createStatus = successStatus(create, [201, 200]);
    if (createStatus === undefined || !(createStatus === 201 || saysCreate(create))) continue;
    const record = responseSchema(create, createStatus);
    const listed = listShapeOf(responseSchema(list, successStatus(list, [200]) ?? 200));
    if (!record || typeOf(record) !== 'object' || !listed || typeOf(listed.items) !== 'object') continue;
    const idField = identityField(record, 'id', name);
    if (idField === undefined || idField === 'name' || !propertiesOf(listed.items).has(idField)) continue;
    const fieldSchema = propertiesOf(record).get(idField)!;
    const idKind = idKindOf(undefined, fieldSchema);
    found.push({
      key: collectionPath,
      name,
      collectionPath,
      itemPath: `${collectionPath}/{${idField}}`,
      idParam: idField,
      scopeParams: [...collectionPath.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!),
      idField,
      idKind,
      idIsNumber: ['integer', 'number'].includes(typeOf(fieldSchema) ?? ''),
      recordSchema: record,
      roles: { list: list.operationId, create: create.operationId },
      upsert: false,
      list: listSpec(list, record, undefined),
      why: `id field ${idField} (${idKind}), no item path in the document`,
      itemless: true,
    });
  }
  return found;
}

function shapeOf(template: string): string {
  return template.replace(/\{[^{}]*\}/g, '{}');
}

function asRecord(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return isObject(value) ? value : undefined;
}

/** What the record schema was found in: the record itself, or the envelope member it travels in. */
interface FoundRecord {
  readonly schema?: Schema;
  /** `{ data: {...} }`: the one object member an item answer wraps the record in. */
  readonly envelope?: string;
  /** `{ Items: [ {...} ] }`: the array member records travel in (batchKeyOf). */
  readonly batchKey?: string;
}

/**
 * The record as the API answers it: the item GET's 200 first, then what a create or replace answers, then a list's
 * items. An item answer that wraps the record in one object property (`{ data: {...} }`) is unwrapped, and so is one
 * that carries it in an array member (`{ Items: [ {...} ] }`, batchKeyOf).
 */
function recordSchemaOf(collection: string, idParam: string, read: Operation | undefined, create?: Operation, replace?: Operation, list?: Operation): FoundRecord {
  const candidates: (Schema | undefined)[] = [
    read ? responseSchema(read, successStatus(read, [200]) ?? 200) : undefined,
    create ? responseSchema(create, successStatus(create, [201, 200]) ?? 201) : undefined,
    replace ? responseSchema(replace, successStatus(replace, [200]) ?? 200) : undefined,
  ];
  for (const candidate of candidates) {
    if (!candidate || typeOf(candidate) !== 'object') continue;
    const properties = propertiesOf(candidate);
    const wrapped = ENVELOPE_KEYS.find((key) => properties.has(key) && typeOf(properties.get(key)!) === 'object');
    if (wrapped && properties.size <= 3 && !properties.has('id')) return { schema: properties.get(wrapped)!, envelope: wrapped };
    // One object member named as one record of the collection (Xero payroll's `{ pagination, problem, employee: {...} }`
    // for `/Employees/{EmployeeID}`), beside at most a few others and no id of its own.
    const own = [...properties.keys()].find((key) => key.toLowerCase() === singularOf(collection).toLowerCase() && typeOf(properties.get(key)!) === 'object');
    if (own !== undefined && properties.size <= 4 && !properties.has('id') && !properties.has(idParam)) return { schema: properties.get(own)!, envelope: own };
    // Else the only object member that carries an identity field, beside at most two others and with none of its own
    // (Discourse's createGroup answers `{ basic_group: { id, ... } }`): the record, wrapped under another name.
    const objects = [...properties].filter(([, member]) => typeOf(member) === 'object' && propertiesOf(member).size > 0);
    const sole = objects.length === 1 && properties.size <= 3 && !carriesId(candidate, collection, idParam) && carriesId(objects[0]![1], collection, idParam) ? objects[0]! : undefined;
    if (sole) return { schema: sole[1], envelope: sole[0] };
    const batchKey = batchKeyOf(candidate, collection, idParam);
    if (batchKey !== undefined) return { schema: itemsOf(properties.get(batchKey)!)!, batchKey };
    return { schema: candidate };
  }
  const listed = list ? listShapeOf(responseSchema(list, successStatus(list, [200]) ?? 200)) : undefined;
  if (listed?.items) return { schema: listed.items };
  const body = (create && requestSchema(create)) ?? (replace && requestSchema(replace));
  return body ? { schema: body } : {};
}

/** Members an envelope of records may carry besides them: paging, warnings, a status, a request id, a time. */
const BATCH_OTHER_MEMBERS = 4;

/**
 * The member of an object schema that carries records in an array (Xero's `{ "Items": [ {...} ] }` for `/Items`,
 * beside `pagination` and `Warnings`): the array member named as the collection (case aside), else the only array
 * member, when its items are objects and the envelope has few other members and no identity field of its own (a
 * record with a list of sub-records, `{ id, groups: [...] }`, is not an envelope). An only array member, not named as
 * the collection, counts only when its items have the identity field: `{ name, members: [...] }` stays a record.
 */
function batchKeyOf(schema: Schema, collection: string, idParam: string): string | undefined {
  const properties = propertiesOf(schema);
  if (properties.size > BATCH_OTHER_MEMBERS + 1 || carriesId(schema, collection, idParam)) return undefined;
  const arrays = [...properties].filter(([, property]) => {
    const items = itemsOf(property);
    return items !== undefined && typeOf(items) === 'object';
  });
  const named = arrays.find(([name]) => name.toLowerCase() === collection.toLowerCase());
  if (named) return named[0];
  // Beside an object member named as one record (Discourse's `{ badge: {...}, badge_types: [...] }` for `/badges`),
  // the array is something else: the record is that member.
  const singular = singularOf(collection).toLowerCase();
  if ([...properties].some(([name, property]) => name.toLowerCase() === singular && typeOf(property) === 'object')) return undefined;
  const only = arrays.length === 1 && [...properties.values()].filter((property) => typeOf(property) === 'array').length === 1 ? arrays[0] : undefined;
  return only && carriesId(itemsOf(only[1])!, collection, idParam) ? only[0] : undefined;
}

/**
 * Whether a schema has an identity field of its own: `id`, or the id parameter's name or `<thing>Id` in any case
 * (`ItemID`). Not `Id` beside the records (a request id, as Xero's answers carry), nor a `code` or `key`, which
 * metadata may be called too.
 */
function carriesId(schema: Schema, collection: string, idParam: string): boolean {
  const squash = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  // `{synonymSetName}` names its record by `name` (identityField): Typesense's set `{ name, items: [{id, ...}] }` is
  // the record, not an envelope of the items it holds.
  const lastWord = lastOfSeveralWords(idParam);
  const named = lastWord !== undefined && lastWord !== 'id' ? lastWord : undefined;
  return [...propertiesOf(schema).keys()].some((name) => name === 'id' || squash(name) === squash(idParam) || squash(name) === `${squash(singularOf(collection))}id` || name === named);
}

/** Whether an operation's own words say it creates: its operationId (`createItems`) or summary ("Creates one or more"). */
function saysCreate(operation: Operation): boolean {
  return /^create/i.test(operation.operationId) || /^\s*creates?\b/i.test(operation.summary ?? '');
}

/** Whether a PUT's own words say it creates what is absent: `upsertPreset`, "Create or update a collection alias", "Upserts a preset". */
function saysUpsert(operation: Operation): boolean {
  return saysCreate(operation) || /upsert/i.test(operation.operationId) || /\b(upserts?|create or (update|replace)|creates? or (updates?|replaces?))\b/i.test(operation.summary ?? '');
}

/** Whether an operation's own words say it deletes: `deleteBankTransfers`, "Deletes one or more bank transfers". */
function saysDelete(operation: Operation): boolean {
  return /^(delete|remove)/i.test(operation.operationId) || /^\s*(deletes?|removes?)\b/i.test(operation.summary ?? '');
}

/**
 * Whether an operation is sent the record (its schema, the same object in a dereferenced document) or the read's
 * answer (its envelope), or an envelope whose array member holds the record: what an update by POST is sent.
 */
function sendsRecord(operation: Operation, found: FoundRecord, read: Operation | undefined): boolean {
  const body = requestSchema(operation);
  if (!body || !found.schema) return false;
  if (body === found.schema || (read !== undefined && body === responseSchema(read, successStatus(read, [200]) ?? 200))) return true;
  const member = found.batchKey ? propertiesOf(body).get(found.batchKey) : undefined;
  return member !== undefined && itemsOf(member) === found.schema;
}

/** The identity field: the one x-mock-id names, else the path parameter's own name, `id`, `<thing>Id`, `<thing>_id`, ... */
function identityField(record: Schema, idParam: string, collection: string, explicit?: string): string | undefined {
  const properties = propertiesOf(record);
  if (explicit !== undefined) return explicit;
  const singular = singularOf(collection);
  const squash = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  // `{team_slug}` names its field by its last word (`slug`), unless that word is only `id`.
  const words = idParam.split(/[_-]|(?=[A-Z])/);
  const lastWord = words.length > 1 ? words[words.length - 1]!.toLowerCase() : undefined;
  const candidates = [idParam, ...(lastWord && lastWord !== 'id' ? [lastWord] : []), 'id', `${singular}Id`, `${singular}_id`, `${singular}ID`, 'ID', 'Id', '_id', 'uuid', 'key', 'slug', 'code', 'name'];
  for (const name of candidates) if (properties.has(name) && (name !== 'name' || /name$/i.test(idParam))) return name;
  // `{pet_id}` against `petId`, `{PetID}` against `petId`: the same words in another case.
  for (const name of properties.keys()) if (squash(name) === squash(idParam) || squash(name) === `${squash(singular)}id`) return name;
  return undefined;
}

/**
 * The resource whose item path an operation's path extends (`/reports/{id}/export`), matched by shape, since the
 * operation may name the id otherwise (Adyen's `/paymentInstruments/{paymentInstrumentId}/authorisedCardUsers` under
 * `/paymentInstruments/{id}`); with the operation's own names for the resource's scope and id parameters, in order.
 */
export function ownerOf(operation: Operation, resources: readonly Resource[]): { readonly resource: Resource; readonly params: readonly string[] } | undefined {
  const shape = shapeOf(operation.pathTemplate);
  const owner = resources.filter((r) => shape.startsWith(`${shapeOf(r.itemPath)}/`)).sort((a, b) => b.itemPath.length - a.itemPath.length)[0];
  if (!owner) return undefined;
  const names = [...operation.pathTemplate.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1]!);
  return { resource: owner, params: names.slice(0, owner.scopeParams.length + 1) };
}

/**
 * The resource a path parameter of an operation outside every item path names by its id parameter's own name: Svix's
 * `POST /auth/app-portal-access/{app_id}` names the application of `/app/{app_id}`, so an app no record has is the
 * document's 404 there too. Only a name one top-level resource alone uses for its id, never a bare `id`, and only
 * where the operation documents a 404: anything looser would refuse requests a real server serves.
 */
export function namedResourceOf(operation: Operation, resources: readonly Resource[]): { readonly resource: Resource; readonly param: string } | undefined {
  if (!operation.responses.has('404')) return undefined;
  for (const parameter of operation.parameters) {
    if (parameter.in !== 'path' || /^(id|sid|key|name)$/i.test(parameter.name)) continue;
    const named = resources.filter((r) => r.idParam === parameter.name);
    if (named.length === 1 && named[0]!.scopeParams.length === 0) return { resource: named[0]!, param: parameter.name };
  }
  return undefined;
}

/**
 * The parent resource of a nested one, among `resources`: the one whose item path is its parent item path. With
 * `described` (the document's path templates), also a parent served under another prefix: Google Tasks' tasks hang
 * from `/lists/{tasklist}`, a path the document does not describe, and its lists live at `/users/@me/lists/{tasklist}`:
 * the one top-level resource with that collection name and item parameter. Only where the parent path is described
 * nowhere (GitHub's `/orgs/{org}` is, and `/user/memberships/orgs/{org}` is another thing) and names one parameter.
 */
export function parentOf(resource: Resource, resources: readonly Resource[], described?: ReadonlySet<string>): Resource | undefined {
  // By shape: Twilio's `/Accounts/{AccountSid}/Calls.json` hangs from `/Accounts/{Sid}.json`, one template named twice.
  const path = parentItemPath(resource);
  const wanted = shapeOf(path);
  const byShape = resources.find((other) => shapeOf(other.itemPath) === wanted);
  if (byShape || described === undefined || described.has(path)) return byShape;
  const tail = /\/([^/{}]+)\/\{([^{}]+)\}$/.exec(path);
  if (!tail || path.indexOf('{') !== path.lastIndexOf('{')) return undefined;
  const named = resources.filter((other) => other !== resource && other.idParam === tail[2] && other.scopeParams.length === 0 && other.itemPath.endsWith(`/${tail[1]}/{${tail[2]}}`));
  return named.length === 1 ? named[0] : undefined;
}

/**
 * The item path a nested collection hangs from: `/a/{aId}` for `/a/{aId}/things`, and for `/a/{aId}/billing/things`
 * too (Clerk's `/organizations/{organizationID}/billing/payment_methods`): the nearest segment above that names a
 * record. Without it an absent organization's payment methods were answered 200, where the document has a 404.
 */
export function parentItemPath(resource: Resource): string {
  const segments = resource.collectionPath.split('/').slice(0, -1);
  const named = segments.findLastIndex((segment) => /^\{[^{}]+\}$/.test(segment));
  const parent = (named > 0 ? segments.slice(0, named + 1) : segments).join('/');
  return resource.suffix && parent.endsWith('}') ? `${parent}${resource.suffix}` : parent;
}

export function singularOf(plural: string): string {
  if (/ies$/.test(plural)) return `${plural.slice(0, -3)}y`;
  if (/(ss|x|ch|sh)es$/.test(plural)) return plural.slice(0, -2);
  if (/s$/.test(plural) && !/ss$/.test(plural)) return plural.slice(0, -1);
  return plural;
}

/** Whether a string schema says more than `type: string`: a sequence number as text would break it. */
export function constrainsText(schema: Schema): boolean {
  const s = mergeAllOf(schema);
  return s.pattern !== undefined || s.format !== undefined || s.enum !== undefined || s.minLength !== undefined || s.maxLength !== undefined;
}

function idKindOf(parameter: ParameterSpec | undefined, field: Schema | undefined): IdKind {
  const s = mergeAllOf(parameter?.schema ?? field ?? {});
  const type = typeOf(s);
  if (type === 'integer' || type === 'number') return 'integer';
  if (s.format === 'uuid' || (field && mergeAllOf(field).format === 'uuid')) return 'uuid';
  return 'string';
}

function listShapeOf(schema: Schema | undefined, batchKey?: string): { shape: ListShape; items: Schema } | undefined {
  if (!schema) return undefined;
  const items = itemsOf(schema);
  if (items) return { shape: { kind: 'array' }, items };
  if (typeOf(schema) !== 'object') return undefined;
  const properties = propertiesOf(schema);
  const arrays = [...properties].filter(([, p]) => typeOf(p) === 'array');
  // Beside other arrays (Xero's `Warnings`), the member the records travel in (`BankTransactions`) holds them.
  // SCIM's ListResponse says `Resources` beside its `schemas` (strings): a known name in any case, else the one array of objects.
  const ofRecords = arrays.filter(([, p]) => typeOf(itemsOf(p) ?? {}) === 'object');
  const chosen = arrays.find(([name]) => ENVELOPE_KEYS.includes(name.toLowerCase())) ?? (arrays.length === 1 ? arrays[0] : arrays.find(([name]) => name === batchKey)) ?? (ofRecords.length === 1 ? ofRecords[0] : undefined);
  if (!chosen) return undefined;
  const numeric = (name: string): boolean => ['integer', 'number'].includes(typeOf(properties.get(name)!) ?? '');
  const totalKey = TOTAL_KEYS.find((name) => properties.has(name) && numeric(name));
  const pagesKey = PAGES_KEYS.find((name) => properties.has(name) && numeric(name));
  const cursorKey = CURSOR_KEYS.find((name) => properties.has(name) && ['string', undefined].includes(typeOf(properties.get(name)!)));
  return {
    shape: { kind: 'envelope', itemsKey: chosen[0], ...(totalKey ? { totalKey } : {}), ...(pagesKey ? { pagesKey } : {}), ...(cursorKey ? { cursorKey } : {}), schema },
    items: itemsOf(chosen[1]) ?? {},
  };
}

function listSpec(list: Operation, record: Schema | undefined, batchKey: string | undefined): ListSpec {
  const shape = listShapeOf(responseSchema(list, successStatus(list, [200]) ?? 200), batchKey)?.shape ?? { kind: 'array' as const };
  const query = list.parameters.filter((p) => p.in === 'query');
  const pick = (names: readonly string[]): string | undefined => names.find((name) => query.some((p) => p.name === name));
  const paging: Paging = {
    ...(pick(LIMIT_PARAMS) ? { limit: pick(LIMIT_PARAMS)! } : {}),
    ...(pick(OFFSET_PARAMS) ? { offset: pick(OFFSET_PARAMS)! } : {}),
    ...(pick(PAGE_PARAMS) ? { page: pick(PAGE_PARAMS)! } : {}),
    ...(pick(CURSOR_PARAMS) ? { cursor: pick(CURSOR_PARAMS)! } : {}),
  };
  const pagingNames = new Set(Object.values(paging));
  const fields = record ? propertiesOf(record) : new Map<string, Schema>();
  const filters = new Map<string, string>();
  for (const parameter of query) {
    if (pagingNames.has(parameter.name)) continue;
    if (fields.has(parameter.name)) filters.set(parameter.name, parameter.name);
    else {
      // `tags` filters by `tag`, `status[]` by `status`: a plural or bracketed name for a field.
      const bare = parameter.name.replace(/\[\]$/, '');
      const singular = singularOf(bare);
      if (fields.has(bare)) filters.set(parameter.name, bare);
      else if (fields.has(singular)) filters.set(parameter.name, singular);
    }
  }
  return { operationId: list.operationId, shape, paging, filters };
}

