/**
 * A generator of small OpenAPI documents from the shapes real APIs use (issue 32, point 2), seeded: the same seed
 * gives the same document, so a failing seed is kept as a named regression case. No document's names or accidents:
 * each draw picks, per resource, how its list is shaped (a bare array, or an envelope with a total, a `has_more` and a
 * cursor), how a create answers (200, 201 with Location, 202, 204), whether PUT creates or only updates, how PATCH is
 * sent, how DELETE answers, whether an action sits under the item, what kind its id is (an integer, a uuid, a slug, a
 * composite key), which members are required, readOnly or writeOnly, which parameter styles its list takes (form with
 * and without explode, spaceDelimited, pipeDelimited, deepObject, headers), whether errors are documented and how
 * (an Error, a problem+json, none at all), in OpenAPI 3.0 or 3.1 (type lists for null); whether a create's body allows
 * more than its answer holds, and whether one record sits in no collection (`/preferences`, `/things/{id}/settings`).
 */
import { mulberry32 } from '../random.js';

export interface GeneratedDocument {
  readonly seed: number;
  readonly document: Record<string, unknown>;
  /** What was drawn, in words: said by a failing case. */
  readonly shapes: readonly string[];
}

const NAMES = ['widgets', 'orders', 'users', 'projects', 'invoices', 'tags', 'notes', 'devices', 'teams', 'accounts', 'reports', 'boxes'];
const CHILDREN = ['items', 'comments', 'members', 'entries', 'lines'];

type Json = Record<string, unknown>;

export function generateDocument(seed: number): GeneratedDocument {
  // mulberry32: the same document for a seed on every machine.
  const random = mulberry32(seed);
  const chance = (p: number): boolean => random() < p;
  // Shapes added after seeds were kept as regression cases draw from a stream of their own, so every earlier draw
  // (and the document a kept seed names) stays as it was; they only add to it.
  const later = mulberry32(seed ^ 0x5bd1e995);
  const laterChance = (p: number): boolean => later() < p;
  const pick = <T>(options: readonly T[]): T => options[Math.floor(random() * options.length)]!;
  const shapes: string[] = [];
  const v31 = chance(0.4);
  shapes.push(v31 ? 'OpenAPI 3.1' : 'OpenAPI 3.0');
  const nullable = (schema: Json): Json => (v31 ? { ...schema, type: [schema['type'], 'null'] } : { ...schema, nullable: true });

  const schemas: Json = {};
  const paths: Json = {};
  const responses: Json = {};
  // Errors: an Error object, a problem+json, or none documented at all.
  const errorStyle = pick(['error', 'problem', 'none'] as const);
  shapes.push(`errors: ${errorStyle}`);
  if (errorStyle === 'error') {
    schemas['Error'] = { type: 'object', required: ['code', 'message'], properties: { code: { type: 'string' }, message: { type: 'string' }, details: { type: 'array', items: { type: 'object', properties: { field: { type: 'string' } } } } } };
    responses['Error'] = { description: 'an error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } };
  } else if (errorStyle === 'problem') {
    schemas['Problem'] = { type: 'object', required: ['title', 'status'], properties: { type: { type: 'string', format: 'uri' }, title: { type: 'string' }, status: { type: 'integer', minimum: 100, maximum: 599 }, detail: { type: 'string' } } };
    responses['Error'] = { description: 'a problem', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } };
  }
  const errorsFor = (...statuses: number[]): Json => (errorStyle === 'none' ? {} : Object.fromEntries(statuses.filter(() => chance(0.75)).map((status) => [String(status), { $ref: '#/components/responses/Error' }])));
  const operationId = (id: string): Json => (chance(0.85) ? { operationId: id } : {});

  const names = [...NAMES].sort(() => random() - 0.5);
  const resourceCount = 1 + Math.floor(random() * 2);
  const made: { name: string; itemPath: string }[] = [];
  for (let r = 0; r < resourceCount + 1; r += 1) {
    const nested = r === resourceCount;
    if (nested && (made.length === 0 || !chance(0.6))) break;
    const parent = nested ? made[0]! : undefined;
    const name = nested ? pick(CHILDREN) : names[r]!;
    const singular = name.endsWith('ies') ? `${name.slice(0, -3)}y` : name.endsWith('xes') ? name.slice(0, -2) : name.slice(0, -1);
    const Thing = `${singular[0]!.toUpperCase()}${singular.slice(1)}`;
    const idKind = pick(['integer', 'uuid', 'slug', 'composite'] as const);
    const drawn = idKind === 'slug' ? pick(['slug', `${singular}Slug`]) : pick(['id', `${singular}Id`, `${singular}_id`]);
    // A path names each parameter once (OAS 3.0.3 §4.7.12): a child's id is not called as its parent's.
    const idParam = parent && parent.itemPath.endsWith(`{${drawn}}`) ? `${singular}Key` : drawn;
    const idSchema: Json =
      idKind === 'integer' ? { type: 'integer', format: 'int64', minimum: 1 } : idKind === 'uuid' ? { type: 'string', format: 'uuid' } : idKind === 'slug' ? { type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', minLength: 1, maxLength: 40 } : { type: 'string', pattern: '^[a-z]{2,8}:[0-9]{1,6}$' };
    // The record's id member: `slug` for a slug, else `id` or the parameter's own name.
    const fieldName = idKind === 'slug' ? 'slug' : chance(0.5) ? 'id' : idParam;
    shapes.push(`${name}: id ${fieldName} (${idKind}) at {${idParam}}${parent ? `, under ${parent.name}` : ''}`);

    // The record: its id (readOnly where the server makes it), required and optional members, readOnly and writeOnly ones.
    const serverMadeId = idKind === 'integer' || idKind === 'uuid';
    const properties: Json = { [fieldName]: { ...idSchema, ...(serverMadeId && chance(0.6) ? { readOnly: true } : {}) } };
    const required = [fieldName, 'name'];
    properties['name'] = { type: 'string', minLength: 1, maxLength: 40 };
    if (chance(0.6)) properties['status'] = { type: 'string', enum: ['active', 'paused', 'archived'] };
    if (chance(0.5)) properties['count'] = { type: 'integer', minimum: 0, maximum: 1000 };
    if (chance(0.4)) properties['price'] = { type: 'number', minimum: 0, exclusiveMaximum: v31 ? 10000 : undefined };
    if (chance(0.4)) properties['enabled'] = { type: 'boolean' };
    if (chance(0.5)) properties['labels'] = { type: 'array', items: { type: 'string', maxLength: 20 }, maxItems: 5 };
    if (chance(0.5)) properties['createdAt'] = { type: 'string', format: 'date-time', readOnly: true };
    if (chance(0.4)) properties['secret'] = { type: 'string', writeOnly: true, minLength: 8 };
    if (chance(0.4)) properties['note'] = nullable({ type: 'string', maxLength: 200 });
    if (chance(0.3)) properties['meta'] = { type: 'object', additionalProperties: { type: 'string' } };
    if (chance(0.3)) properties['address'] = { type: 'object', required: ['city'], properties: { city: { type: 'string' }, zip: { type: 'string', pattern: '^[0-9]{5}$' } } };
    for (const member of Object.keys(properties)) if (member !== fieldName && member !== 'name' && chance(0.3)) required.push(member);
    for (const member of Object.keys(properties)) {
      const p = properties[member] as Json;
      if (p['exclusiveMaximum'] === undefined) delete p['exclusiveMaximum'];
    }
    if (properties['secret'] && required.includes('secret')) shapes.push(`${name}: a required writeOnly member`);
    schemas[Thing] = { type: 'object', required, properties, ...(chance(0.3) ? { additionalProperties: false } : {}) };
    // A create's body: the record (readOnly members left out by the request view) or a schema of its own.
    const ownInput = chance(0.4);
    if (ownInput) {
      const input: Json = {};
      for (const [member, schema] of Object.entries(properties)) if (!(schema as Json)['readOnly'] && (member !== fieldName || !serverMadeId)) input[member] = schema;
      schemas[`New${Thing}`] = { type: 'object', required: required.filter((member) => member in input), properties: input };
    }
    // An answer narrower than its request (Rebilly's organization: any name sent, at most 60 characters answered).
    if (ownInput && !parent && laterChance(0.4)) {
      const input = schemas[`New${Thing}`] as { properties: Json };
      input.properties['name'] = { type: 'string', minLength: 1, maxLength: 200 };
      shapes.push(`${name}: a name of 200 characters sent, of 40 answered`);
    }
    const inputRef = { $ref: `#/components/schemas/${ownInput ? `New${Thing}` : Thing}` };
    const recordRef = { $ref: `#/components/schemas/${Thing}` };

    const enveloped = chance(0.4);
    const item = (): Json => (enveloped ? { type: 'object', required: ['data'], properties: { data: recordRef } } : recordRef);
    if (enveloped) shapes.push(`${name}: items in { data }`);
    const base = parent ? `${parent.itemPath}/${name}` : `/${name}`;
    const itemPath = `${base}/{${idParam}}`;
    const parentParams: Json[] = parent ? [{ name: parent.itemPath.match(/\{([^}]+)\}$/)![1], in: 'path', required: true, schema: (paths[parent.itemPath] as Json)['x-id-schema'] as Json }] : [];
    made.push({ name, itemPath });

    // The list: a bare array or an envelope; paging and filters in the styles APIs use.
    const listStyle = pick(['array', 'envelope'] as const);
    const listSchema: Json =
      listStyle === 'array'
        ? { type: 'array', items: recordRef }
        : { type: 'object', required: ['data', 'has_more'], properties: { data: { type: 'array', items: recordRef }, has_more: { type: 'boolean' }, total: { type: 'integer', minimum: 0 }, ...(chance(0.5) ? { next_cursor: nullable({ type: 'string' }) } : {}), object: { type: 'string', enum: ['list'] } } };
    if (listStyle === 'envelope' && chance(0.5)) (listSchema['required'] as string[]).push('object');
    const query: Json[] = [];
    const paging = pick(['none', 'offset', 'page', 'cursor'] as const);
    if (paging !== 'none') query.push({ name: paging === 'page' ? 'per_page' : 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } });
    if (paging === 'offset') query.push({ name: 'offset', in: 'query', schema: { type: 'integer', minimum: 0 } });
    if (paging === 'page') query.push({ name: 'page', in: 'query', schema: { type: 'integer', minimum: 1 } });
    if (paging === 'cursor') query.push({ name: 'cursor', in: 'query', schema: { type: 'string' } });
    if (properties['status'] && chance(0.7)) {
      const style = pick(['form-single', 'form', 'form-exploded', 'spaceDelimited', 'pipeDelimited'] as const);
      const array = { type: 'array', items: { type: 'string', enum: ['active', 'paused', 'archived'] }, maxItems: 3, ...(chance(0.5) ? { uniqueItems: true } : {}) };
      query.push(
        style === 'form-single'
          ? { name: 'status', in: 'query', schema: { type: 'string', enum: ['active', 'paused', 'archived'] } }
          : { name: 'status', in: 'query', schema: array, style: style === 'form-exploded' ? 'form' : style, explode: style === 'form-exploded' },
      );
      shapes.push(`${name}: status filter ${style}`);
    }
    if (chance(0.4)) {
      query.push({ name: 'filter', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object', properties: { name: { type: 'string' }, min_count: { type: 'integer', minimum: 0 } } } });
      shapes.push(`${name}: deepObject filter`);
    }
    if (chance(0.3)) query.push({ name: 'fields', in: 'query', style: 'form', explode: false, schema: { type: 'array', items: { type: 'string', enum: Object.keys(properties) }, minItems: 1 } });
    const header: Json[] = chance(0.3) ? [{ name: 'X-Request-Id', in: 'header', schema: { type: 'string', format: 'uuid' } }] : [];
    if (chance(0.2)) header.push({ name: 'X-Trace', in: 'header', schema: { type: 'array', items: { type: 'integer' } } });
    const listHeaders: Json = chance(0.3) ? { 'X-Total-Count': { schema: { type: 'integer', minimum: 0 } } } : {};

    const collection: Json = { ...(parentParams.length > 0 ? { parameters: parentParams } : {}) };
    collection['get'] = { ...operationId(`list${Thing}s`), parameters: [...query, ...header], responses: { '200': { description: 'the list', ...(Object.keys(listHeaders).length > 0 ? { headers: listHeaders } : {}), content: { 'application/json': { schema: listSchema } } }, ...errorsFor(400, 404) } };
    if (chance(0.85)) {
      const created = pick([200, 201, 201, 202, 204]);
      shapes.push(`${name}: create answers ${created}`);
      const answer: Json = { description: 'created' };
      if (created === 201 && chance(0.6)) answer['headers'] = { Location: { required: chance(0.5), schema: { type: 'string' } } };
      if (created !== 204 && (created !== 202 || chance(0.5))) answer['content'] = { 'application/json': { schema: item() } };
      collection['post'] = { ...operationId(`create${Thing}`), requestBody: { required: true, content: { 'application/json': { schema: inputRef } } }, responses: { [String(created)]: answer, ...errorsFor(400, 409, 422) } };
    }
    paths[base] = collection;

    const itemOps: Json = { parameters: [...parentParams, { name: idParam, in: 'path', required: true, schema: idSchema }], 'x-id-schema': idSchema };
    itemOps['get'] = { ...operationId(`get${Thing}`), responses: { '200': { description: 'the record', content: { 'application/json': { schema: item() } } }, ...errorsFor(404) } };
    if (chance(0.6)) {
      const creates = chance(0.4);
      const status = pick([200, 204]);
      shapes.push(`${name}: PUT ${creates ? 'creates (201) or replaces' : 'only replaces'} (${status})`);
      itemOps['put'] = {
        ...operationId(`replace${Thing}`),
        requestBody: { required: true, content: { 'application/json': { schema: inputRef } } },
        responses: { [String(status)]: { description: 'replaced', ...(status === 200 ? { content: { 'application/json': { schema: item() } } } : {}) }, ...(creates ? { '201': { description: 'created', content: { 'application/json': { schema: item() } } } } : {}), ...errorsFor(400, 404) },
      };
    }
    if (chance(0.5)) {
      const merge = chance(0.5);
      itemOps['patch'] = {
        ...operationId(`update${Thing}`),
        requestBody: { required: true, content: { [merge ? 'application/merge-patch+json' : 'application/json']: { schema: { type: 'object', properties: Object.fromEntries(Object.entries(properties).filter(([, s]) => !(s as Json)['readOnly'])) } } } },
        responses: { '200': { description: 'updated', content: { 'application/json': { schema: item() } } }, ...errorsFor(400, 404) },
      };
    }
    if (chance(0.8)) {
      const status = pick([204, 204, 200, 202]);
      shapes.push(`${name}: DELETE answers ${status}`);
      itemOps['delete'] = { ...operationId(`delete${Thing}`), responses: { [String(status)]: { description: 'deleted', ...(status === 200 ? { content: { 'application/json': { schema: recordRef } } } : {}) }, ...errorsFor(404) } };
    }
    paths[itemPath] = itemOps;
    if (chance(0.5)) {
      // An action under the item, whose answer requires members the record does not have.
      shapes.push(`${name}: action archive`);
      paths[`${itemPath}/archive`] = {
        parameters: itemOps['parameters'],
        post: {
          ...operationId(`archive${Thing}`),
          ...(chance(0.5) ? { requestBody: { required: false, content: { 'application/json': { schema: { type: 'object', properties: { reason: { type: 'string', maxLength: 100 } } } } } } } : {}),
          responses: { '200': { description: 'archived', content: { 'application/json': { schema: { type: 'object', required: ['data', 'archived'], properties: { data: recordRef, archived: { type: 'boolean' } } } } } }, ...errorsFor(404, 409) },
        },
      };
    }
    if (!parent && laterChance(0.3)) {
      // One record under each item, in no collection: its settings, written whole by PUT.
      shapes.push(`${name}: settings under the item (GET, PUT)`);
      paths[`${itemPath}/settings`] = {
        parameters: itemOps['parameters'],
        get: { ...operationId(`get${Thing}Settings`), responses: { '200': { description: 'the settings', content: { 'application/json': { schema: { $ref: '#/components/schemas/Settings' } } } }, ...errorsFor(404) } },
        put: { ...operationId(`put${Thing}Settings`), requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Settings' } } } }, responses: { '200': { description: 'kept', content: { 'application/json': { schema: { $ref: '#/components/schemas/Settings' } } } }, ...errorsFor(400, 404) } },
      };
    }
    if (chance(0.25)) {
      shapes.push(`${name}: an event stream`);
      paths[`${itemPath}/events`] = { parameters: itemOps['parameters'], get: { ...operationId(`stream${Thing}Events`), responses: { '200': { description: 'events', content: { 'text/event-stream': { schema: { type: 'string' } } } }, ...errorsFor(404) } } };
    }
  }
  if (laterChance(0.35)) {
    // One record of the whole API, in no collection (`/preferences`): GET and PUT, and PATCH or DELETE at times.
    const settingsRef = { $ref: '#/components/schemas/Settings' };
    const answer = { description: 'the preferences', content: { 'application/json': { schema: settingsRef } } };
    const preferences: Json = {
      get: { ...operationId('getPreferences'), responses: { '200': answer } },
      put: { ...operationId('putPreferences'), requestBody: { required: true, content: { 'application/json': { schema: settingsRef } } }, responses: { '200': answer, ...errorsFor(400) } },
    };
    if (laterChance(0.5)) preferences['patch'] = { ...operationId('patchPreferences'), requestBody: { required: true, content: { 'application/merge-patch+json': { schema: settingsRef } } }, responses: { '200': answer, ...errorsFor(400) } };
    if (laterChance(0.3)) preferences['delete'] = { ...operationId('resetPreferences'), responses: { '204': { description: 'back to the defaults' } } };
    paths['/preferences'] = preferences;
    shapes.push(`/preferences: ${Object.keys(preferences).join(', ')}`);
  }
  if (Object.keys(paths).some((path) => path === '/preferences' || path.endsWith('/settings'))) {
    schemas['Settings'] = { type: 'object', properties: { theme: { type: 'string', enum: ['light', 'dark'] }, pageSize: { type: 'integer', minimum: 1, maximum: 100 }, digest: { type: 'boolean' }, signature: v31 ? { type: ['string', 'null'], maxLength: 200 } : { type: 'string', nullable: true, maxLength: 200 } } };
  }
  if (chance(0.5)) paths['/health'] = { get: { ...operationId('health'), responses: { '200': { description: 'ok', content: { 'application/json': { schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } } } } } } } } };
  if (chance(0.3)) paths['/export'] = { get: { ...operationId('exportAll'), responses: { '200': { description: 'CSV', content: { 'text/csv': { schema: { type: 'string' } } } } } } };

  for (const value of Object.values(paths)) delete (value as Json)['x-id-schema'];
  const document: Record<string, unknown> = {
    openapi: v31 ? '3.1.0' : '3.0.3',
    info: { title: `Generated ${seed}`, version: '1.0.0' },
    ...(chance(0.4) ? { servers: [{ url: 'https://api.example.com/v1' }] } : {}),
    paths,
    components: { schemas, ...(Object.keys(responses).length > 0 ? { responses } : {}) },
  };
  return { seed, document, shapes };
}
