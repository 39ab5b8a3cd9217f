#!/usr/bin/env node
// The second yardstick of `npm run bench` (issue 34, point 1): a hand-written Pet Store backend on
// fastify 5 that validates what it is sent and keeps what it creates, in Maps. Where bare node:http
// (baseline-server.mjs) replays fixed answers, this one does a real backend's work for the routes the
// bench measures, with fastify's own machinery compiled once per route at start-up:
//
//   - routing by find-my-way;
//   - validation of path, query and body by fastify's own validator compiler (@fastify/ajv-compiler,
//     Ajv 8), fed with the document's schemas: each operation's parameter and body schemas from
//     openapi.yaml, turned into JSON Schema by the project's converter (src/schema, the request view:
//     what any fastify user of an OpenAPI 3.0 document has to do, since fastify takes JSON Schema);
//   - serialisation of each 2xx answer by fast-json-stringify, compiled from the response schema
//     (the response view), as fastify does with a route's `response` schemas.
//
// Why fastify's validator and not ours: the baseline is meant to show what a well-made server on a
// common framework costs, so it uses the framework as its users do. Two of fastify's Ajv defaults
// are changed so that it answers as the contract asks (and does the mock's work on a refusal):
// `removeAdditional: false` (the contract's request bodies are closed: an unknown field is a 400,
// not silently dropped) and `allErrors: true` (a 400 lists every problem in `details`).
//
// Routes: GET /pets/{petId} (with the deprecation headers), GET /pets (filters status, categoryId,
// id; limit, offset; X-Total-Count), POST /pets (422 for an unknown category; a new pet gets an
// inventory entry of 1), POST /store/orders and DELETE /store/orders/{orderId} (the contract's rules 2
// and 4: the pet must be available with stock; a cancel gives both back). Anything else is a 404.
// No sessions, journal, Prefer, faults or CORS preflights: those are the mock's features.
//
//   node bench/fastify-server.mjs [--port 0] [--host 127.0.0.1] [--state FILE] [--responses FILE]
// --state FILE: the data to start from, in the shape of the mock's GET /__mock/state (the bench
// exports the mock's state after preparing a scenario, so both serve the same records).
// --responses FILE: the answers the bench recorded from the mock; their CORS headers are sent on
// every answer here too, so both servers put the same header lines on the wire.
// Needs dist/ (npm run build): it reads openapi.yaml with the project's own loader and converter.
import Fastify from 'fastify';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BODY_LIMIT = 1024 * 1024;
const CORS_DEFAULT = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': 'Allow, Preference-Applied, X-Mock-Unknown-Query, X-Mock-Chaos, X-Mock-Session-Dropped, X-Total-Count, Location, Deprecation, Sunset, Link',
};
const DEPRECATION = '@1767225600';
const SUNSET = 'Wed, 30 Jun 2027 23:59:59 GMT';
const DEPRECATION_DOC = 'https://petstore.example.com/docs/deprecations#getPet';

/** The CORS header lines of a recorded answer, else the mock's defaults. */
function corsHeaders(recorded) {
  for (const answer of Object.values(recorded ?? {})) {
    const out = {};
    for (const [name, value] of Object.entries(answer?.headers ?? {})) if (name.toLowerCase().startsWith('access-control-')) out[name.toLowerCase()] = value;
    if (Object.keys(out).length > 0) return out;
  }
  return CORS_DEFAULT;
}

/** Fastify route schemas for one operation of the document: params, querystring, body, the 2xx response. */
function routeSchema(operation, toJsonSchema) {
  const group = (location) => {
    const params = operation.parameters.filter((p) => p.in === location);
    if (params.length === 0) return undefined;
    return {
      type: 'object',
      properties: Object.fromEntries(params.map((p) => [p.name, toJsonSchema(p.schema, 'request')])),
      required: params.filter((p) => p.required).map((p) => p.name),
    };
  };
  const schema = {};
  const params = group('path');
  if (params) schema.params = params;
  const querystring = group('query');
  if (querystring) {
    // A repeatable (explode: true) array parameter: fastify's query parser yields a string for one value
    // and an array for several; coerceTypes: 'array' turns the one into a list of one.
    schema.querystring = querystring;
  }
  const body = operation.requestBody?.content.find((m) => m.mediaType === 'application/json')?.schema;
  if (body) schema.body = toJsonSchema(body, 'request');
  const response = {};
  for (const [status, spec] of operation.responses) {
    const json = spec.content.find((m) => m.mediaType === 'application/json')?.schema;
    if (/^2\d\d$/.test(status) && json) response[status] = toJsonSchema(json, 'response');
  }
  if (Object.keys(response).length > 0) schema.response = response;
  return schema;
}

async function main() {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, host: { type: 'string', default: '127.0.0.1' }, state: { type: 'string' }, responses: { type: 'string' } } });
  const { loadContract } = await import(`${ROOT}dist/src/contract/index.js`);
  const { toJsonSchema } = await import(`${ROOT}dist/src/schema/index.js`);
  const contract = await loadContract(`${ROOT}openapi.yaml`);
  const schemaOf = (operationId) => routeSchema(contract.operationsById.get(operationId), toJsonSchema);
  const cors = corsHeaders(values.responses ? JSON.parse(readFileSync(values.responses, 'utf8')) : undefined);

  // The store: Maps in insertion (= id) order, records frozen and replaced on change.
  const state = values.state ? JSON.parse(readFileSync(values.state, 'utf8')) : { categories: [], pets: [], orders: [], inventory: [] };
  const categories = new Map(state.categories.map((c) => [c.id, Object.freeze(c)]));
  const pets = new Map(state.pets.map((p) => [p.id, Object.freeze(p)]));
  const orders = new Map(state.orders.map((o) => [o.id, Object.freeze(o)]));
  const stock = new Map(state.inventory.map((i) => [i.petId, i.quantity]));
  const maxId = (records) => records.reduce((max, r) => Math.max(max, r.id), 0);
  let nextPetId = Math.max(state.nextIds?.pets ?? 1, maxId(state.pets) + 1);
  let nextOrderId = Math.max(state.nextIds?.orders ?? 1, maxId(state.orders) + 1);

  const app = Fastify({
    logger: false,
    bodyLimit: BODY_LIMIT,
    ajv: { customOptions: { removeAdditional: false, allErrors: true, keywords: ['example'] } },
  });

  const error = (reply, status, code, message, details) => {
    reply.code(status).headers(cors).type('application/json');
    return details ? { code, message, status, details } : { code, message, status };
  };
  app.setErrorHandler((err, _request, reply) => {
    if (err.validation) {
      const details = err.validation.map((e) => ({ path: `/${err.validationContext}${e.instancePath}`, message: e.message ?? 'is invalid' }));
      return reply.send(error(reply, 400, 'VALIDATION_FAILED', 'The request does not match the contract; see details.', details));
    }
    if (err.statusCode === 413) return reply.send(error(reply, 413, 'PAYLOAD_TOO_LARGE', 'The request body is larger than 1 MiB.'));
    if (err.statusCode === 415) return reply.send(error(reply, 415, 'UNSUPPORTED_MEDIA_TYPE', 'The body must be application/json.'));
    if (err.statusCode === 400) return reply.send(error(reply, 400, 'MALFORMED_JSON', 'The body is not valid JSON.'));
    return reply.send(error(reply, 500, 'INTERNAL_ERROR', 'The server failed.'));
  });
  app.setNotFoundHandler((_request, reply) => reply.send(error(reply, 404, 'ROUTE_NOT_FOUND', 'No operation matches this request.')));

  // Every answer of the deprecated read carries its three headers, refusals included: set before validation runs.
  const deprecationHeaders = (request, reply, done) => {
    reply.header('deprecation', DEPRECATION).header('sunset', SUNSET)
      .header('link', `</pets?id=${request.params.petId}>; rel="successor-version", <${DEPRECATION_DOC}>; rel="deprecation"; type="text/html"`);
    done();
  };
  app.get('/pets/:petId', { schema: schemaOf('getPet'), onRequest: deprecationHeaders }, (request, reply) => {
    const { petId } = request.params;
    reply.headers(cors);
    const pet = pets.get(petId);
    return pet ?? error(reply, 404, 'PET_NOT_FOUND', `No pet has id ${petId}.`);
  });

  app.get('/pets', { schema: schemaOf('listPets') }, (request, reply) => {
    const { status, categoryId, id, limit = 20, offset = 0 } = request.query;
    const ids = id === undefined ? undefined : new Set(id);
    const page = [];
    let total = 0;
    for (const pet of pets.values()) {
      if (status !== undefined && pet.status !== status) continue;
      if (categoryId !== undefined && pet.categoryId !== categoryId) continue;
      if (ids !== undefined && !ids.has(pet.id)) continue;
      if (total >= offset && page.length < limit) page.push(pet);
      total++;
    }
    reply.headers(cors).header('x-total-count', String(total));
    return page;
  });

  app.post('/pets', { schema: schemaOf('createPet') }, (request, reply) => {
    const { name, categoryId, status = 'available' } = request.body;
    if (!categories.has(categoryId)) return error(reply, 422, 'UNKNOWN_CATEGORY', `No category has id ${categoryId}; create it first or pick another.`);
    const pet = Object.freeze({ id: nextPetId++, name, categoryId, status });
    pets.set(pet.id, pet);
    stock.set(pet.id, 1);
    reply.code(201).headers(cors).header('location', `/pets/${pet.id}`);
    return pet;
  });

  app.post('/store/orders', { schema: schemaOf('placeOrder') }, (request, reply) => {
    const { petId, quantity, shipDate, complete = false } = request.body;
    const pet = pets.get(petId);
    if (!pet) return error(reply, 422, 'UNKNOWN_PET', `No pet has id ${petId}.`);
    if (pet.status !== 'available') return error(reply, 409, 'PET_NOT_AVAILABLE', `Pet ${petId} is ${pet.status}; only available pets can be ordered.`);
    const inStock = stock.get(petId) ?? 0;
    if (inStock < quantity) return error(reply, 409, 'INSUFFICIENT_STOCK', `Pet ${petId} has ${inStock} in stock; ${quantity} were ordered.`);
    const order = Object.freeze(shipDate === undefined ? { id: nextOrderId++, petId, quantity, complete } : { id: nextOrderId++, petId, quantity, shipDate, complete });
    orders.set(order.id, order);
    stock.set(petId, inStock - quantity);
    pets.set(petId, Object.freeze({ ...pet, status: complete ? 'sold' : 'pending' }));
    reply.code(201).headers(cors).header('location', `/store/orders/${order.id}`);
    return order;
  });

  app.delete('/store/orders/:orderId', { schema: schemaOf('cancelOrder') }, (request, reply) => {
    const { orderId } = request.params;
    const order = orders.get(orderId);
    if (!order) return error(reply, 404, 'ORDER_NOT_FOUND', `No order has id ${orderId}.`);
    if (order.complete) return error(reply, 409, 'ORDER_ALREADY_COMPLETE', `Order ${orderId} is complete; it cannot be reopened or cancelled.`);
    orders.delete(orderId);
    stock.set(order.petId, (stock.get(order.petId) ?? 0) + order.quantity);
    const pet = pets.get(order.petId);
    if (pet) pets.set(pet.id, Object.freeze({ ...pet, status: 'available' }));
    reply.code(204).headers(cors);
    return reply.send();
  });

  const address = await app.listen({ port: Number(values.port), host: values.host });
  process.stdout.write(`listening on ${address}\n`);
  const stop = () => {
    app.close().then(() => process.exit(0));
    setTimeout(() => process.exit(0), 1000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

await main();
