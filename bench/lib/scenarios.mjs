// The benchmarked scenarios. Each one
//  - `setup(mockUrl)`: prepares the mock (a fresh process per scenario), checks
//    that the mock answers as the contract says (status, headers, details), and
//    records the mock's answers so the baseline can replay them byte for byte;
//  - `load(ctx, server)`: the autocannon `requests` for one load round on one
//    server (fresh per round, so per-round state such as the order cycle's pet
//    pool never leaks from one round into the next).
import { request } from './procs.mjs';

const JSON_HEADERS = { 'content-type': 'application/json' };
export const LIST_PATH = '/pets?status=available&limit=20';
export const REJECTED_BODY = JSON.stringify({ categoryId: 0, status: 'lost', colour: 'brown' });

/** A response as the baseline replays it: status, headers as sent (original case), body text. */
function recordOf(res) {
  const headers = {};
  for (let i = 0; i < res.rawHeaders.length; i += 2) {
    const name = res.rawHeaders[i];
    const value = res.rawHeaders[i + 1];
    const prev = headers[name];
    headers[name] = prev === undefined ? value : [].concat(prev, value);
  }
  return { status: res.status, headers, body: res.body };
}

function expectStatus(what, res, status) {
  if (res.status !== status) {
    throw new Error(`${what}: expected ${status}, got ${res.status}: ${res.body.slice(0, 300)}`);
  }
}

async function firstId(url, path, fallback) {
  const res = await request(url, { path });
  if (res.status !== 200) return fallback;
  try {
    const items = JSON.parse(res.body);
    return Array.isArray(items) && items[0] && Number.isInteger(items[0].id) ? items[0].id : fallback;
  } catch {
    return fallback;
  }
}

async function createPet(url, categoryId, name) {
  const res = await request(url, { method: 'POST', path: '/pets', headers: JSON_HEADERS, body: JSON.stringify({ name, categoryId, status: 'available' }) });
  expectStatus('POST /pets (setup)', res, 201);
  return JSON.parse(res.body).id;
}

/**
 * A published document the generic engine serves (issue 22, point 8: at least 0.8x of bare node:http on a
 * foreign document): Twilio's Messaging API, committed under fixtures/published. Its services collection is
 * `GET /v1/Services` (an envelope, `services`), its item `GET /v1/Services/{Sid}`; the default data is the
 * document's own example record.
 */
export const FOREIGN_SPEC = 'fixtures/published/twilio/twilio_messaging_v1.json';
const FOREIGN_LIST = '/v1/Services';

async function foreignServices(url) {
  const res = await request(url, { path: FOREIGN_LIST });
  expectStatus(`GET ${FOREIGN_LIST} (${FOREIGN_SPEC})`, res, 200);
  const services = JSON.parse(res.body).services;
  if (!Array.isArray(services) || services.length === 0 || typeof services[0].sid !== 'string') throw new Error(`GET ${FOREIGN_LIST}: no services with a sid in ${res.body.slice(0, 200)}`);
  return { res, sid: services[0].sid, count: services.length };
}

/** @type {readonly { id: string, title: string, target: number, expected: readonly number[], spec?: string, setup: (url: string) => Promise<{ ctx: any, recorded: Record<string, any>, notes: string[] }>, load: (ctx: any, server: { kind: 'mock' | 'baseline' | 'backend', url: string }, connections: number) => Promise<object[]> }[]} */
export const SCENARIOS = [
  {
    id: 'getPet',
    title: 'GET /pets/{petId}',
    // Issue 14 raised issue 5's 0.8x to 0.9x, with full validation and every header.
    target: 0.9,
    expected: [200],
    async setup(url) {
      const petId = await firstId(url, '/pets?limit=1', 1);
      const res = await request(url, { path: `/pets/${petId}` });
      expectStatus(`GET /pets/${petId}`, res, 200);
      const missing = ['deprecation', 'sunset', 'link'].filter((h) => !(h in res.headers));
      if (missing.length) throw new Error(`GET /pets/${petId}: the deprecation headers ${missing.join(', ')} are missing`);
      return { ctx: { petId }, recorded: { getPet: recordOf(res) }, notes: [`pet ${petId}, ${res.body.length} body bytes`] };
    },
    async load(ctx) {
      return [{ method: 'GET', path: `/pets/${ctx.petId}` }];
    },
  },
  {
    id: 'listPets',
    title: 'GET /pets?status=available&limit=20',
    target: 0.6,
    expected: [200],
    async setup(url) {
      // A full page: create available pets until at least 20 match.
      let res = await request(url, { path: LIST_PATH });
      expectStatus(`GET ${LIST_PATH}`, res, 200);
      let total = Number(res.headers['x-total-count']);
      if (!Number.isFinite(total)) throw new Error(`GET ${LIST_PATH}: no X-Total-Count header`);
      if (total < 20) {
        const categoryId = await firstId(url, '/categories?limit=1', 1);
        for (let i = total; i < 20; i++) await createPet(url, categoryId, `Bench list pet ${i}`);
        res = await request(url, { path: LIST_PATH });
        expectStatus(`GET ${LIST_PATH}`, res, 200);
        total = Number(res.headers['x-total-count']);
      }
      const items = JSON.parse(res.body).length;
      return { ctx: {}, recorded: { listPets: recordOf(res) }, notes: [`${items} pets per page of ${total} matching, ${res.body.length} body bytes`] };
    },
    async load() {
      return [{ method: 'GET', path: LIST_PATH }];
    },
  },
  {
    id: 'createPet',
    title: 'POST /pets (201)',
    // Issue 14 asks 0.9x; bench/floor.mjs measures the least any correct implementation does at about 0.83x of
    // bare node:http here (bench/README.md), so this target is reported as missed rather than lowered.
    target: 0.9,
    expected: [201],
    async setup(url) {
      const categoryId = await firstId(url, '/categories?limit=1', 1);
      const body = JSON.stringify({ name: 'Bench pet', categoryId, status: 'available' });
      const res = await request(url, { method: 'POST', path: '/pets', headers: JSON_HEADERS, body });
      expectStatus('POST /pets', res, 201);
      if (!res.headers.location) throw new Error('POST /pets: 201 without Location');
      return { ctx: { body }, recorded: { createPet: recordOf(res) }, notes: [`category ${categoryId}, ${res.body.length} body bytes`] };
    },
    async load(ctx) {
      return [{ method: 'POST', path: '/pets', headers: JSON_HEADERS, body: ctx.body }];
    },
  },
  {
    id: 'orderCycle',
    title: 'POST /store/orders + DELETE',
    // No target in the issue; reported for information (and regressions).
    target: Number.NaN,
    expected: [201, 204],
    async setup(url) {
      const categoryId = await firstId(url, '/categories?limit=1', 1);
      const petId = await createPet(url, categoryId, 'Bench order probe');
      const placed = await request(url, { method: 'POST', path: '/store/orders', headers: JSON_HEADERS, body: JSON.stringify({ petId, quantity: 1 }) });
      expectStatus('POST /store/orders', placed, 201);
      const orderId = JSON.parse(placed.body).id;
      const cancelled = await request(url, { method: 'DELETE', path: `/store/orders/${orderId}` });
      expectStatus(`DELETE /store/orders/${orderId}`, cancelled, 204);
      // The cancel must give the pet back, or the cycle would degrade into 409s.
      const again = await request(url, { method: 'POST', path: '/store/orders', headers: JSON_HEADERS, body: JSON.stringify({ petId, quantity: 1 }) });
      expectStatus('POST /store/orders after a cancel', again, 201);
      const cancelledAgain = await request(url, { method: 'DELETE', path: `/store/orders/${JSON.parse(again.body).id}` });
      expectStatus('DELETE /store/orders after a second order', cancelledAgain, 204);
      return {
        ctx: { categoryId },
        recorded: { placeOrder: recordOf(placed), cancelOrder: recordOf(cancelled) },
        notes: [`order ${placed.body.length} body bytes; the pet is orderable again after a cancel`],
      };
    },
    /**
     * Each connection repeats: take a pet from the pool, order it, cancel the
     * order (which makes the pet available again), return it to the pool. The
     * mock gets fresh pets for every round, so an order left open when a round
     * stops mid-cycle never blocks the next round.
     */
    async load(ctx, server, connections) {
      const pool = [];
      const size = connections + 2;
      // The replaying baseline keeps nothing; the mock and the fastify backend get real pets.
      for (let i = 0; i < size; i++) pool.push(server.kind === 'baseline' ? i + 1 : await createPet(server.url, ctx.categoryId, `Bench order pet ${i}`));
      const all = [...pool];
      let spare = 0;
      return [
        {
          method: 'POST',
          path: '/store/orders',
          headers: JSON_HEADERS,
          setupRequest(req, context) {
            // The pool never runs dry (more pets than connections); if it did, reuse a pet and count the 409s.
            context.petId = pool.length ? pool.pop() : all[spare++ % size];
            return { ...req, body: `{"petId":${context.petId},"quantity":1}` };
          },
          onResponse(status, body, context) {
            if (status === 201) {
              context.orderId = JSON.parse(body).id;
            } else {
              pool.push(context.petId);
              context.orderId = undefined;
            }
          },
        },
        {
          method: 'DELETE',
          setupRequest(req, context) {
            // After a failed order, cancel an order that does not exist: a visible 404, never a silent skip.
            return { ...req, path: `/store/orders/${context.orderId ?? 999999999}` };
          },
          onResponse(status, _body, context) {
            // Only a cancelled order frees its pet; anything else is counted as unexpected.
            if (context.orderId !== undefined && status === 204) pool.push(context.petId);
          },
        },
      ];
    },
  },
  {
    id: 'rejectPet',
    title: 'POST /pets (400 + details)',
    target: 0.6,
    expected: [400],
    async setup(url) {
      const res = await request(url, { method: 'POST', path: '/pets', headers: JSON_HEADERS, body: REJECTED_BODY });
      expectStatus('POST /pets with an invalid body', res, 400);
      const error = JSON.parse(res.body);
      if (!Array.isArray(error.details) || error.details.length === 0) throw new Error('POST /pets with an invalid body: 400 without details');
      return { ctx: {}, recorded: { rejectPet: recordOf(res) }, notes: [`${error.details.length} details, ${res.body.length} body bytes`] };
    },
    async load() {
      return [{ method: 'POST', path: '/pets', headers: JSON_HEADERS, body: REJECTED_BODY }];
    },
  },
  {
    id: 'foreignList',
    title: 'Twilio: GET /v1/Services',
    // Issue 22, point 8: the generic engine on a foreign document, at least 0.8x of bare node:http.
    target: 0.8,
    expected: [200],
    spec: FOREIGN_SPEC,
    async setup(url) {
      const { res, count } = await foreignServices(url);
      return { ctx: {}, recorded: { routes: { [`GET ${FOREIGN_LIST}`]: recordOf(res) } }, notes: [`${count} service(s) in the envelope, ${res.body.length} body bytes`] };
    },
    async load() {
      return [{ method: 'GET', path: FOREIGN_LIST }];
    },
  },
  {
    id: 'foreignItem',
    title: 'Twilio: GET /v1/Services/{Sid}',
    target: 0.8,
    expected: [200],
    spec: FOREIGN_SPEC,
    async setup(url) {
      const { sid } = await foreignServices(url);
      const path = `${FOREIGN_LIST}/${sid}`;
      const res = await request(url, { path });
      expectStatus(`GET ${path}`, res, 200);
      return { ctx: { path }, recorded: { routes: { [`GET ${path}`]: recordOf(res) } }, notes: [`${sid}, ${res.body.length} body bytes`] };
    },
    async load(ctx) {
      return [{ method: 'GET', path: ctx.path }];
    },
  },
];
