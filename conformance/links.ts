/**
 * What the document's `links` say about its resources, computed once per
 * run: which operation creates a kind of record, which operations read,
 * replace and delete it, which list holds it, and which parameter names
 * carry its id elsewhere (`categoryId` in a NewPet body is a category's id
 * because createCategory's 201 links bind `categoryId` to `$response.body#/id`).
 * The stateful checks and the generator chain calls from this alone
 * (OpenAPI 3.0.3 §4.7.20, Link Object), so a document with other resources
 * gets the same treatment.
 *
 * A document without links on its creates (most of them) gets them inferred
 * from the usual REST shape (issue 11, point 5): a POST on a collection
 * `/things` creates the records its item path `/things/{id}` reads, replaces
 * and deletes, the id taken from the created body's id-like field or, when
 * the body has none, from the last segment of the `Location` header.
 */
import type { OpenAPIV3 } from 'openapi-types';
import type { Contract, LinkSpec, Operation, ParameterSpec, ResponseSpec } from '../src/contract/index.js';
import { mergeAllOf, propertiesOf, type Schema } from './generate.js';

export interface LinkTarget {
  readonly link: LinkSpec;
  readonly operation: Operation;
}

export interface ResourceKind {
  /** The operation that creates the record (a POST whose 201 carries links). */
  readonly create: Operation;
  readonly createdStatus: string;
  /** Every link of the 201 response whose target the document has. */
  readonly links: readonly LinkTarget[];
  /** Links to GET operations with path parameters: read one record. */
  readonly reads: readonly LinkTarget[];
  /** Links to GET operations that bind a query parameter: read it through a filtered list. */
  readonly listReads: readonly LinkTarget[];
  readonly replace?: LinkTarget;
  readonly remove?: LinkTarget;
  /** The GET on the create operation's own path: the collection that should list the record. */
  readonly list?: Operation;
  /** True when the document has no links here and the runner inferred them from the paths (inferLinks). */
  readonly inferred?: boolean;
  /**
   * For a record made by a PUT on its item path (Qdrant's `PUT /collections/{collection_name}`): the path parameter
   * whose value names it, chosen by the run (putCreates).
   */
  readonly keyParameter?: string;
}

export interface Producer {
  readonly kind: ResourceKind;
  /** The runtime expression that gives the value from the create exchange. */
  readonly expression: string;
}

export interface LinkModel {
  readonly kinds: ReadonlyMap<string, ResourceKind>;
  /** Parameter name → the kind whose create response gives its value (`categoryId` → createCategory). */
  readonly producers: ReadonlyMap<string, Producer>;
  /**
   * Per operation, its path parameters a kind's links bind (`getThing`'s `id` →
   * createThing): more precise than `producers` where several collections
   * name their item `{id}`.
   */
  readonly pathProducers: ReadonlyMap<string, ReadonlyMap<string, Producer>>;
  /**
   * Kinds made by a PUT on their item path, by that PUT's operationId (putCreates): only the parents of nested paths
   * and what the clean-up deletes, not subjects of the record checks, whose create body and read answer such APIs
   * shape apart (Qdrant's collection config sent, its status and counts read).
   */
  readonly putKinds: ReadonlyMap<string, ResourceKind>;
}

/**
 * The runner's own expression for an inferred link whose id is in no body
 * field: the last path segment of the create's `Location` (RFC 9110 §10.2.2).
 * Not an OpenAPI runtime expression; evaluateExpression knows it.
 */
export const LOCATION_ID = '$response.header.Location#last-segment';

/**
 * The prefix of the runner's expression "the Location's last segment when the answer carries a Location, else this
 * body field" (`…|else:$response.body#/credentialId`): for a record whose only id-like field may name another one.
 */
export const LOCATION_ID_ELSE = `${LOCATION_ID}|else:`;

/** Whether an expression is one of the runner's own that read the create's Location. */
export function readsLocation(expression: string): boolean {
  return expression === LOCATION_ID || expression.startsWith(LOCATION_ID_ELSE);
}

/** The producer of an operation's path parameter: the link that binds it for this operation, else the kind that produces the name anywhere. */
export function pathProducer(model: LinkModel, operation: Operation, name: string): Producer | undefined {
  return model.pathProducers.get(operation.operationId)?.get(name) ?? model.producers.get(name);
}

/**
 * Whether `operation`'s path parameter `name` gets its record only by its name (`producers`), from a kind whose item
 * path is not the path above the parameter: OpenAI's `POST /organization/users/{user_id}/roles` takes its user from
 * `add-group-user`, whose records are read at `/organization/groups/{group_id}/users/{user_id}`. A guess the document
 * does not make: a 404 to a request on that path is explained by the runner's own input (context.ts create).
 */
export function guessedByName(model: LinkModel, operation: Operation, name: string): boolean {
  if (model.pathProducers.get(operation.operationId)?.has(name)) return false;
  const producer = model.producers.get(name);
  if (!producer) return false;
  const at = operation.pathTemplate.indexOf(`{${name}}`);
  if (at < 0) return false;
  const above = shapeOf(operation.pathTemplate.slice(0, at + name.length + 2));
  return !producer.kind.reads.some((read) => shapeOf(read.operation.pathTemplate) === above);
}

export function buildLinkModel(contract: Contract): LinkModel {
  const kinds = new Map<string, ResourceKind>();
  const anyLinks = contract.operations.some((op) => op.method === 'post' && op.responses.get('201')?.links.length);
  for (const operation of contract.operations) {
    if (operation.method !== 'post') continue;
    const declared = [...operation.responses.values()].find((response) => response.status === '201' && response.links.length > 0);
    // Links are inferred only for a document whose creates declare none: one that has some says what it means by them.
    const inferred = declared || anyLinks ? undefined : inferLinks(contract, operation);
    const created = declared ?? inferred?.response;
    if (!created) continue;
    const links = (declared?.links ?? inferred?.links ?? []).flatMap((link) => {
      const target = contract.operationsById.get(link.operationId);
      return target ? [{ link, operation: target }] : [];
    });
    const hasPath = (op: Operation): boolean => op.parameters.some((p) => p.in === 'path');
    const list = contract.operations.find((op) => op.method === 'get' && op.pathTemplate === operation.pathTemplate && mayListRecords(okSchema(op)));
    // A link to the list itself is a filtered read (ListPetsById), not another resource.
    const isItself = (target: LinkTarget): boolean => hasPath(target.operation) && sameResourcePath(operation.pathTemplate, target.operation.pathTemplate);
    const replace = links.find((t) => t.operation.method === 'put' && isItself(t)) ?? (inferred ? links.find((t) => t.operation.method === 'patch' && isItself(t)) : undefined);
    const remove = links.find((t) => t.operation.method === 'delete' && isItself(t));
    kinds.set(operation.operationId, {
      create: operation,
      createdStatus: created.status,
      links,
      reads: links.filter((t) => t.operation.method === 'get' && hasPath(t.operation)),
      listReads: links.filter((t) => t.operation.method === 'get' && !hasPath(t.operation)),
      ...(replace ? { replace } : {}),
      ...(remove ? { remove } : {}),
      ...(list ? { list } : {}),
      ...(inferred ? { inferred: true } : {}),
    });
  }

  const producers = new Map<string, Producer>();
  const pathProducers = new Map<string, Map<string, Producer>>();
  for (const kind of kinds.values()) {
    for (const { link, operation } of kind.links) {
      for (const [qualified, expression] of Object.entries(link.parameters)) {
        if (typeof expression !== 'string' || !(expression.startsWith('$response.body') || readsLocation(expression))) continue;
        const name = unqualified(qualified);
        const parameter = linkParameter(operation, qualified);
        if (parameter?.in === 'path') {
          const own = pathProducers.get(operation.operationId) ?? new Map<string, Producer>();
          own.set(parameter.name, { kind, expression });
          pathProducers.set(operation.operationId, own);
        }
        // An inferred `{id}` names a different record on every path, so it is no name another body could carry.
        if (kind.inferred && name === 'id') continue;
        if (!producers.has(name)) producers.set(name, { kind, expression });
      }
    }
  }
  const putKinds = putCreates(contract, kinds);
  const model = { kinds, producers, pathProducers, putKinds };
  addParentProducers(contract, model, pathProducers);
  return model;
}

/**
 * Records made by a PUT on their own item path, the key chosen by the client (Qdrant's `PUT /collections/{name}`,
 * an S3 bucket): where no POST makes the collection's records and the PUT says it creates, by a 201 (RFC 9110
 * §9.3.4: "If the target resource does not have a current representation and the PUT successfully creates one, the
 * origin server MUST inform the user agent by sending a 201") or by its words (`create_collection`, "Create
 * collection", "Create or update"). Without such a kind, every operation below the item (`/collections/{name}/points`)
 * was sent a made-up name, refused 404 by a correct server, and judged on nothing.
 */
function putCreates(contract: Contract, kinds: ReadonlyMap<string, ResourceKind>): Map<string, ResourceKind> {
  const out = new Map<string, ResourceKind>();
  const posted = new Set([...kinds.values()].map((kind) => kind.create.pathTemplate));
  for (const put of contract.operations) {
    if (put.method !== 'put') continue;
    const key = /\{([^{}/]+)\}$/.exec(put.pathTemplate)?.[1];
    const collection = put.pathTemplate.slice(0, put.pathTemplate.lastIndexOf('/')) || '/';
    if (key === undefined || posted.has(collection) || !(put.responses.has('201') || saysCreate(put))) continue;
    // Every path parameter as the PUT was sent it: a record below a parent (`/sets/{set}/items/{item}`) is read and
    // deleted in that parent (a case makes one parent of a kind and keeps to it: context.ts create).
    const parameters = requestPathBindings(put);
    const item = (method: string): LinkTarget | undefined => {
      const operation = contract.operations.find((op) => op.method === method && op.pathTemplate === put.pathTemplate);
      return operation ? { link: { name: `inferred ${method.toUpperCase()} ${put.pathTemplate}`, operationId: operation.operationId, parameters }, operation } : undefined;
    };
    const read = item('get');
    const remove = item('delete');
    const links = [read, remove].filter((target): target is LinkTarget => target !== undefined);
    out.set(put.operationId, {
      create: put,
      createdStatus: put.responses.has('201') ? '201' : (['200', '204'].find((status) => put.responses.has(status)) ?? '201'),
      links,
      reads: read ? [read] : [],
      listReads: [],
      ...(remove ? { remove } : {}),
      inferred: true,
      keyParameter: key,
    });
  }
  return out;
}

/** A link's parameters that name each path parameter as `operation`'s request was sent it (`path.x: $request.path.x`). */
function requestPathBindings(operation: Operation): Record<string, string> {
  return Object.fromEntries(operation.parameters.filter((p) => p.in === 'path').map((p) => [`path.${p.name}`, `$request.path.${p.name}`]));
}

/** Whether a PUT's own words say it creates: `create_collection`, `createOrUpdateIndex`, "Create collection", "Creates or updates …". */
function saysCreate(operation: Operation): boolean {
  return /^(create|upsert)/i.test(operation.operationId) || /^\s*(creates?|upserts?)\b/i.test(operation.summary ?? '');
}

/**
 * A nested path's parent id (`/owners/{ownerId}/pets`, Twilio's `/Accounts/{AccountSid}/Calls.json`) that no link
 * binds is the id of a record of the kind whose item path the nested path extends (`/owners/{id}`,
 * `/Accounts/{Sid}.json`): the run creates one and names it, where it used to invent an id a correct server refuses
 * with 404. Matched by shape, since the parent's item path often names its id otherwise.
 */
function addParentProducers(contract: Contract, model: Pick<LinkModel, 'kinds' | 'putKinds' | 'pathProducers' | 'producers'>, pathProducers: Map<string, Map<string, Producer>>): void {
  const items: { shape: string; producer: Producer }[] = [];
  // A record a PUT makes is named by the value the run chose for its item path (putCreates): the parent of the paths
  // below it, and the record the item path's other operations (its GET, DELETE, PATCH) are sent.
  for (const kind of model.putKinds.values()) {
    const producer = { kind, expression: `$request.path.${kind.keyParameter!}` };
    items.push({ shape: shapeOf(kind.create.pathTemplate), producer });
    for (const operation of contract.operations) {
      if (operation === kind.create || operation.pathTemplate !== kind.create.pathTemplate || pathProducer(model, operation, kind.keyParameter!) !== undefined) continue;
      const own = pathProducers.get(operation.operationId) ?? new Map<string, Producer>();
      own.set(kind.keyParameter!, producer);
      pathProducers.set(operation.operationId, own);
    }
  }
  for (const kind of model.kinds.values()) {
    for (const target of kind.reads) {
      const idName = /\{([^{}/]+)\}(\.[A-Za-z0-9]+)?$/.exec(target.operation.pathTemplate)?.[1];
      const expression = Object.entries(target.link.parameters).find(([qualified]) => unqualified(qualified) === idName)?.[1];
      if (typeof expression === 'string' && (expression.startsWith('$response.body') || readsLocation(expression))) items.push({ shape: shapeOf(target.operation.pathTemplate), producer: { kind, expression } });
    }
  }
  if (items.length === 0) return;
  for (const operation of contract.operations) {
    const extension = /(\.[A-Za-z0-9]+)$/.exec(operation.pathTemplate)?.[1] ?? '';
    for (const parameter of operation.parameters) {
      if (parameter.in !== 'path' || pathProducer(model, operation, parameter.name) !== undefined) continue;
      const at = operation.pathTemplate.indexOf(`{${parameter.name}}`);
      // The parameter must close a parent segment: `/owners/{ownerId}/...`, never the path's own last id.
      const prefix = operation.pathTemplate.slice(0, at + parameter.name.length + 2);
      if (at < 0 || prefix === operation.pathTemplate || operation.pathTemplate === `${prefix}${extension}`) continue;
      const parent = items.find((item) => item.shape === shapeOf(prefix) || item.shape === shapeOf(`${prefix}${extension}`));
      if (!parent) continue;
      const own = pathProducers.get(operation.operationId) ?? new Map<string, Producer>();
      own.set(parameter.name, parent.producer);
      pathProducers.set(operation.operationId, own);
    }
  }
}

/** An operation's parameters, its path parameters first from the deepest (the last in its template) to the first. */
export function deepestPathFirst(operation: Operation): ParameterSpec[] {
  const at = (parameter: ParameterSpec): number => operation.pathTemplate.indexOf(`{${parameter.name}}`);
  const path = operation.parameters.filter((p) => p.in === 'path').sort((a, b) => at(b) - at(a));
  return [...path, ...operation.parameters.filter((p) => p.in !== 'path')];
}

/**
 * The parent values a record of a nested kind was created under (`{ tasklist: '7' }` for a task made by
 * `POST /lists/7/tasks`), where `operation`'s path runs through the create's (`/lists/{tasklist}/tasks/{task}`): an
 * operation that names the record names its parents too, and they are the ones it was made in.
 */
export function parentsNamedBy(kind: ResourceKind, source: ExpressionSource, operation: Operation): Record<string, string> {
  // A collection written with an extension (Twilio's `/Accounts/{AccountSid}/Calls.json`) is extended without it
  // (`/Accounts/{AccountSid}/Calls/{CallSid}/Recordings.json`): a recording's call is made in the account it names.
  const collection = shapeOf(kind.create.pathTemplate).replace(/\.[A-Za-z0-9]+$/, '');
  return shapeOf(operation.pathTemplate).startsWith(`${collection}/`) ? createdUnder(kind, source) : {};
}

/**
 * The values a record's create was sent in its path, its own key apart (`{ tasklist: '7' }` for `POST /lists/7/tasks`):
 * the collection it lives in, which a read of that collection names.
 */
export function createdUnder(kind: ResourceKind, source: ExpressionSource): Record<string, string> {
  const out: Record<string, string> = {};
  for (const parameter of kind.create.parameters) {
    if (parameter.in !== 'path' || parameter.name === kind.keyParameter) continue;
    const value = evaluateExpression(`$request.path.${parameter.name}`, source);
    if (typeof value === 'string' || typeof value === 'number') out[parameter.name] = String(value);
  }
  return out;
}

/** `/a/{aId}/b` and `/a/{x}/b` are one shape. */
function shapeOf(template: string): string {
  return template.replace(/\{[^{}]*\}/g, '{}');
}

/** What inferLinks found for a create: the response that gives the record and the links it would have declared. */
interface InferredLinks {
  readonly response: ResponseSpec;
  readonly links: readonly LinkSpec[];
}

/**
 * The usual REST shape around a POST on a collection (`/things`): its 201 (or
 * 200) answer, linked to every GET, PUT, PATCH and DELETE on the item path
 * `/things/{id}`, the id bound from the body's id-like field or the Location
 * header.
 */
function inferLinks(contract: Contract, create: Operation): InferredLinks | undefined {
  const response = create.responses.get('201') ?? create.responses.get('200');
  if (!response) return undefined;
  // A nested collection (`/lists/{tasklist}/tasks`, Google Tasks): its records live in the parent the create was sent
  // to, so each link names that parent as the create's request did (`$request.path.tasklist`, OpenAPI 3.0.3 §4.7.20.4)
  // and the record's own id as a top-level create's. The run makes the parent first (addParentProducers, context.ts
  // create); without this, every operation on `/lists/{tasklist}/tasks/{task}` was sent a made-up task and skipped.
  const parents = requestPathBindings(create);
  const items = contract.operations.filter((op) => ['get', 'put', 'patch', 'delete'].includes(op.method) && sameResourcePath(create.pathTemplate, op.pathTemplate));
  if (items.length === 0) return undefined;
  const links = items.flatMap((item): LinkSpec[] => {
    const idName = /\{([^}/]+)\}(\.[A-Za-z0-9]+)?$/.exec(item.pathTemplate)![1]!;
    const expression = idExpression(response, idName, create.pathTemplate);
    // `/badges/{id}.json`: the Location's last segment carries the suffix too (`24.json`), so only a body field names the id.
    if (!expression || (expression === LOCATION_ID && !item.pathTemplate.endsWith('}'))) return [];
    const own = expression.startsWith(LOCATION_ID_ELSE) && !item.pathTemplate.endsWith('}') ? expression.slice(LOCATION_ID_ELSE.length) : expression;
    return [{ name: `inferred ${item.method.toUpperCase()} ${item.pathTemplate}`, operationId: item.operationId, parameters: { ...parents, [`path.${idName}`]: own } }];
  });
  return links.length > 0 ? { response, links } : undefined;
}

/**
 * Where a created record's id is: the body field named like the item's
 * parameter (`thingId`), else `id`, else it in another case (`{Sid}`: `sid`), else the parameter's last word
 * (`event_type_name` → `name`), else the one field named like an id
 * (`thing_id`, `thingID`); else such a field of the record the body wraps in one member (`{ "data": {...} }`,
 * ReadMe's API); with none, the Location header's last segment.
 */
function idExpression(response: ResponseSpec, idName: string, collectionPath: string): string | undefined {
  const bodySchema = response.content.find((m) => /json/i.test(m.mediaType))?.schema;
  const pointer = (names: readonly string[]): string => `$response.body#/${names.map((name) => name.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
  // The one field named like an id that does not say the collection may be a reference to another record
  // (`credentialId` in a `/password-tokens` answer): the Location, when the answer carries one, names the record.
  const expressionOf = (found: IdField, names: readonly string[]): string => (found.lone && !namesCollection(found.name, collectionPath) ? `${LOCATION_ID_ELSE}${pointer(names)}` : pointer(names));
  const field = idFieldOf(bodySchema, idName);
  if (field) return expressionOf(field, [field.name]);
  const members = propertiesOf(bodySchema);
  const wrappers = Object.entries(members).filter(([, member]) => Object.keys(propertiesOf(member)).length > 0);
  // One object member beside at most two others (paging, a request id): the record, wrapped.
  if (wrappers.length === 1 && Object.keys(members).length <= 3) {
    const [wrapper, member] = wrappers[0]!;
    const inner = idFieldOf(member, idName);
    if (inner) return expressionOf(inner, [wrapper, inner.name]);
  }
  return LOCATION_ID;
}

interface IdField {
  readonly name: string;
  /** Found only as the one field named like an id, not by the path parameter's name. */
  readonly lone: boolean;
}

/** The field of an object schema that names the record for `{idName}` (see idExpression), if any. */
function idFieldOf(bodySchema: Parameters<typeof propertiesOf>[0], idName: string): IdField | undefined {
  const properties = Object.keys(propertiesOf(bodySchema));
  const idLike = properties.filter((name) => /(^|_)id$|[a-z]Id$|ID$/.test(name));
  // `{event_type_name}` is the record's `name` (Svix), `{team_slug}` its `slug`: the parameter's last word, after `id`.
  const words = idName.split(/[_-]|(?=[A-Z])/);
  const lastWord = words.length > 1 ? words[words.length - 1]!.toLowerCase() : undefined;
  const named = properties.find((name) => name === idName) ?? properties.find((name) => name === 'id') ?? properties.find((name) => name.toLowerCase() === idName.toLowerCase()) ?? properties.find((name) => lastWord !== undefined && name === lastWord);
  if (named !== undefined) return { name: named, lone: false };
  return idLike.length === 1 ? { name: idLike[0]!, lone: true } : undefined;
}

/** Whether a parameter's name starts with the name of the collection at `collectionPath` (`petId`, `pet_id` for /pets). */
export function namesCollection(parameter: string, collectionPath: string): boolean {
  const plain = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, '');
  const segment = collectionPath.split('/').filter((part) => part !== '' && !part.startsWith('{')).pop();
  if (segment === undefined) return false;
  const plural = plain(segment.replace(/\.[A-Za-z0-9]+$/, ''));
  const singular = plural.replace(/(ies)$/, 'y').replace(/(s)$/, '');
  const name = plain(parameter);
  return singular !== '' && (name.startsWith(plural) || name.startsWith(singular));
}


/** `/pets/{petId}` is an item of `/pets`. */
function sameResourcePath(collection: string, item: string): boolean {
  // `/Accounts.json` and `/Accounts/{Sid}.json` (Twilio): a format suffix both carry.
  const extension = /(\.[A-Za-z0-9]+)$/.exec(collection)?.[1];
  if (extension && new RegExp(`^${escapeRegExp(collection.slice(0, -extension.length))}/\\{[^}/]+\\}${escapeRegExp(extension)}$`).test(item)) return true;
  // A collection at the document's root (`/` and `/{id}`: Vonage's Applications API, served under its server's path).
  const prefix = collection === '/' ? '' : escapeRegExp(collection);
  return new RegExp(`^${prefix}/\\{[^}/]+\\}$`).test(item);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Link parameter names may be qualified by location (`path.petId`, OpenAPI 3.0.3 §4.7.20). */
export function unqualified(name: string): string {
  const match = /^(path|query|header|cookie)\.(.+)$/.exec(name);
  return match ? match[2]! : name;
}

/** The parameter of `operation` a link parameter name refers to. */
export function linkParameter(operation: Operation, qualified: string): ParameterSpec | undefined {
  const match = /^(path|query|header|cookie)\.(.+)$/.exec(qualified);
  if (match) return operation.parameters.find((p) => p.in === match[1] && p.name === match[2]);
  return operation.parameters.find((p) => p.name === qualified);
}

export interface ExpressionSource {
  readonly url: string;
  readonly method: string;
  readonly status?: number;
  readonly requestBody?: unknown;
  readonly requestPath?: Readonly<Record<string, unknown>>;
  readonly requestQuery?: Readonly<Record<string, unknown>>;
  readonly responseBody?: unknown;
  readonly responseHeaders?: Readonly<Record<string, string>>;
}

/**
 * Evaluates an OpenAPI runtime expression (OpenAPI 3.0.3 §4.7.20.4):
 * `$response.body#/id`, `$response.header.Location`, `$request.path.petId`,
 * `$url`, `$method`, `$statusCode`; anything else is a constant.
 */
export function evaluateExpression(expression: unknown, source: ExpressionSource): unknown {
  if (typeof expression !== 'string' || !expression.startsWith('$')) return expression;
  if (expression === '$url') return source.url;
  if (expression === '$method') return source.method;
  if (expression === '$statusCode') return source.status;
  if (expression === LOCATION_ID) return lastSegment(source.responseHeaders?.['location']);
  if (expression.startsWith(LOCATION_ID_ELSE)) return lastSegment(source.responseHeaders?.['location']) ?? evaluateExpression(expression.slice(LOCATION_ID_ELSE.length), source);
  const body = /^\$(request|response)\.body(?:#(.*))?$/.exec(expression);
  if (body) return resolvePointer(body[1] === 'request' ? source.requestBody : source.responseBody, body[2] ?? '');
  const header = /^\$response\.header\.(.+)$/.exec(expression);
  if (header) return source.responseHeaders?.[header[1]!.toLowerCase()];
  const request = /^\$request\.(path|query)\.(.+)$/.exec(expression);
  if (request) return (request[1] === 'path' ? source.requestPath : source.requestQuery)?.[request[2]!];
  return undefined;
}

/** The last path segment of a URI reference, decoded: `/things/42?x=1` → `42`. */
function lastSegment(reference: string | undefined): string | undefined {
  if (!reference) return undefined;
  const path = reference.split(/[?#]/)[0]!.replace(/\/+$/, '');
  const segment = path.slice(path.lastIndexOf('/') + 1);
  if (!segment) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** RFC 6901 JSON pointer. */
export function resolvePointer(value: unknown, pointer: string): unknown {
  if (pointer === '' || pointer === '/') return pointer === '' ? value : (value as Record<string, unknown> | undefined)?.[''];
  let current: unknown = value;
  for (const raw of pointer.replace(/^\//, '').split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) current = current[Number(key)];
    else if (typeof current === 'object' && current !== null) current = (current as Record<string, unknown>)[key];
    else return undefined;
  }
  return current;
}

/** The schema of the record a create operation answers with (its 201 JSON body). */
export function createdSchema(kind: ResourceKind): OpenAPIV3.SchemaObject | undefined {
  return kind.create.responses.get(kind.createdStatus)?.content.find((m) => /json/i.test(m.mediaType))?.schema;
}

/** The schema of an operation's 200 JSON body. */
export function okSchema(operation: Operation): OpenAPIV3.SchemaObject | undefined {
  // A read that documents no 200 answers its first documented 2xx (PagerDuty's incident workflow read: only a 201).
  const success = operation.responses.get('200') ?? [...operation.responses].find(([status]) => /^2/.test(status))?.[1];
  return success?.content.find((m) => /json/i.test(m.mediaType))?.schema;
}

/**
 * Whether a GET's answer can hold a list of records: an array, or an object with an array member whose items may be
 * objects; or a schema that says too little to tell. One that declares a single record (Mastodon's `GET /filters`,
 * "List of V1::Filter" answering one V1Filter, whose only array is a list of strings) holds no list to look in.
 */
export function mayListRecords(answer: unknown): boolean {
  const s = answer === undefined ? undefined : mergeAllOf(answer as Schema);
  if (!s || s.oneOf || s.anyOf) return true;
  if (s.type === 'array' || 'items' in s) return true;
  const properties = propertiesOf(s);
  if (Object.keys(properties).length === 0) return true;
  return Object.values(properties).some((raw) => {
    const member = mergeAllOf(raw);
    if (member.type !== 'array' && !('items' in member)) return false;
    const items = (member as { items?: unknown }).items;
    if (items === undefined) return true;
    const item = mergeAllOf(items as Schema);
    return item.type === undefined || item.type === 'object' || Object.keys(propertiesOf(item)).length > 0 || Boolean(item.oneOf ?? item.anyOf);
  });
}

/**
 * Whether two dereferenced schemas say the same thing. Compared structurally, not by JSON text: a schema that holds
 * itself (Mastodon's `Account.moved: oneOf [Account, null]`, dereferenced into a cycle) has no JSON text, and
 * `JSON.stringify` threw inside every check that created a record. A pair already under comparison is taken as equal
 * (the two cycles unfold alike as far as the rest of the walk can tell).
 */
export function sameSchema(a: unknown, b: unknown): boolean {
  return a !== undefined && b !== undefined && sameStructure(a, b, new Map());
}

function sameStructure(a: unknown, b: unknown, open: Map<object, Set<object>>): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const pairs = open.get(a);
  if (pairs?.has(b)) return true;
  if (pairs) pairs.add(b);
  else open.set(a, new Set([b]));
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  for (let i = 0; i < keysA.length; i += 1) {
    // Key order as JSON text compared it: the same schema object dereferenced twice keeps its order.
    if (keysA[i] !== keysB[i]) return false;
    if (!sameStructure((a as Record<string, unknown>)[keysA[i]!], (b as Record<string, unknown>)[keysB[i]!], open)) return false;
  }
  return true;
}

/**
 * Whether `answer` is the created record's representation: the same schema, or one the create's answer extends
 * (`allOf: [Thing, {receipt}]`: the create says a little more about the record than its reads do).
 */
export function representsCreated(answer: unknown, created: unknown): boolean {
  if (sameSchema(answer, created)) return true;
  const parts = (created as { allOf?: unknown } | undefined)?.allOf;
  return Array.isArray(parts) && parts.some((part) => sameSchema(answer, part));
}

/** Does the link read the created record itself (same schema), rather than something about it (its inventory entry)? */
export function readsSameRecord(kind: ResourceKind, target: LinkTarget): boolean {
  const answer = okSchema(target.operation);
  if (target.operation.parameters.some((p) => p.in === 'path')) return representsCreated(answer, createdSchema(kind));
  const items = (answer as { items?: unknown } | undefined)?.items;
  return representsCreated(items, createdSchema(kind));
}

/** The reads of the record itself, non-deprecated ones first (the runner prefers what clients should use). */
export function recordReads(kind: ResourceKind): LinkTarget[] {
  return kind.reads.filter((t) => readsSameRecord(kind, t)).sort((a, b) => Number(a.operation.deprecated) - Number(b.operation.deprecated));
}

/**
 * Where a record is read once a deprecated read of it is gone (410 after its
 * sunset): the successor the document names (`x-successor-version`, a list
 * filtered by id here), which is a link of the 201 reading the same record.
 */
export function successorRead(kind: ResourceKind, gone: LinkTarget): LinkTarget | undefined {
  const template = gone.operation.deprecation?.successorTemplate?.split('?')[0];
  const candidates = kind.listReads.filter((t) => readsSameRecord(kind, t));
  return candidates.find((t) => template !== undefined && t.operation.pathTemplate === template) ?? candidates[0];
}

/** The field that identifies a record in lists: what the links bind from the created body (`$response.body#/id` → `id`). */
export function identityField(kind: ResourceKind): string | undefined {
  for (const { link } of kind.links) {
    for (const expression of Object.values(link.parameters)) {
      const match = typeof expression === 'string' ? /^\$response\.body#\/([^/]+)$/.exec(expression) : null;
      if (match) return match[1]!.replace(/~1/g, '/').replace(/~0/g, '~');
    }
  }
  return undefined;
}
