#!/usr/bin/env node
// Two builds of the mock's core in ONE process, batch by batch in turns: CPU µs per request (process.cpuUsage,
// user + system) of each, the fastest batch and the median. On a shared, loaded machine two runs of
// bench/core.mjs can differ by 2x (a process lands on a busy core, or not); here both builds meet the same
// moments of load, so their ratio holds where their absolute figures do not. Caveat: what is process-wide (the
// heap, modules loaded by either build) is shared, so a cost of that kind shows in neither; time those with
// `node bench/core.mjs --dist DIR`, run after run.
//
//   node bench/core-ab.mjs --a /tmp/old/dist --b dist [--only listPets,foreignItem] [--batches 30] [--iterations 2000]
//
// A build from before mock/ had its folders (issue 34) is read where its modules were (mock/server.js, mock/json.js).
//
// A build is a `dist/` directory with its package's node_modules reachable (a worktree of an earlier commit,
// built). foreignList and foreignItem (the generic engine on Twilio Messaging) need builds that have the engine.
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { importFirst, JSON_MODULES, SERVER_MODULES } from './lib/dist-import.mjs';
import { FOREIGN_SPEC } from './lib/scenarios.mjs';
import { fmt, formatTable, median } from './lib/stats.mjs';

const { values } = parseArgs({ options: { a: { type: 'string' }, b: { type: 'string', default: 'dist' }, batches: { type: 'string', default: '30' }, iterations: { type: 'string', default: '2000' }, only: { type: 'string' } } });
if (!values.a) {
  console.error('core-ab: --a DIR (a built dist/) is required; --b defaults to this checkout\'s dist/');
  process.exit(2);
}
const ALL = ['getPet', 'listPets', 'createPet', 'orderCycle', 'rejectPet', 'foreignList', 'foreignItem'];
const ids = values.only ? values.only.split(',') : ALL;
const unknown = ids.filter((id) => !ALL.includes(id));
if (unknown.length > 0) {
  console.error(`core-ab: unknown scenario ${unknown.join(', ')}; known: ${ALL.join(', ')}`);
  process.exit(2);
}
const batches = Number(values.batches);
const iterations = Number(values.iterations);
const headers = { host: '127.0.0.1:4010', connection: 'keep-alive' };
const bytes = (value) => new TextEncoder().encode(JSON.stringify(value));

/** One build's scenarios, as bench/core.mjs runs them: handle() and the encoding the server does. */
async function scenariosOf(dir) {
  const dist = pathToFileURL(`${path.resolve(dir)}/`);
  const { startMock } = await importFirst(dist, SERVER_MODULES);
  const { encodeJson } = await importFirst(dist, JSON_MODULES);
  const petStore = await startMock({ port: 0, quiet: true });
  const foreign = ids.some((id) => id.startsWith('foreign')) ? await startMock({ port: 0, quiet: true, log: () => {}, specPath: fileURLToPath(new URL(`../${FOREIGN_SPEC}`, import.meta.url)) }) : undefined;
  const app = petStore.app;
  const send = (response, method) => (response.body === undefined ? 0 : Buffer.byteLength(encodeJson(response.body, method === 'GET')));
  const post = (p, value) => {
    const body = bytes(value);
    const h = { ...headers, 'content-type': 'application/json', 'content-length': String(body.length) };
    return () => ({ method: 'POST', path: p, query: {}, headers: h, body: { kind: 'bytes', bytes: body } });
  };
  for (let i = 0; i < 20; i++) app.handle(post('/pets', { name: `Core list pet ${i}`, categoryId: 1, status: 'available' })());
  const orderPet = app.handle(post('/pets', { name: 'Core order pet', categoryId: 1, status: 'available' })()).body.id;
  const placeOrder = post('/store/orders', { petId: orderPet, quantity: 1 });
  const createPet = post('/pets', { name: 'Bench pet', categoryId: 1, status: 'available' });
  const rejectPet = post('/pets', { categoryId: 0, status: 'lost', colour: 'brown' });
  const sid = foreign?.app.handle({ method: 'GET', path: '/v1/Services', query: {}, headers }).body?.services?.[0]?.sid;
  const get = (target, p, query = {}) => send(target.handle({ method: 'GET', path: p, query, headers }), 'GET');
  return {
    close: async () => {
      await petStore.close();
      await foreign?.close();
    },
    run: {
      getPet: () => get(app, '/pets/1'),
      listPets: () => get(app, '/pets', { status: 'available', limit: '20' }),
      createPet: () => send(app.handle(createPet()), 'POST'),
      rejectPet: () => send(app.handle(rejectPet()), 'POST'),
      orderCycle: () => {
        const placed = app.handle(placeOrder());
        send(placed, 'POST');
        send(app.handle({ method: 'DELETE', path: `/store/orders/${placed.body.id}`, query: {}, headers }), 'DELETE');
      },
      foreignList: () => get(foreign.app, '/v1/Services'),
      foreignItem: () => get(foreign.app, `/v1/Services/${sid}`),
    },
  };
}

const a = await scenariosOf(values.a);
const b = await scenariosOf(values.b);
const perRequest = { orderCycle: 2 };
const batch = (fn) => {
  const start = process.cpuUsage();
  for (let i = 0; i < iterations; i++) fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / iterations;
};
const rows = [];
for (const id of ids) {
  for (let i = 0; i < 5_000; i++) {
    a.run[id]();
    b.run[id]();
  }
  const ta = [];
  const tb = [];
  for (let k = 0; k < batches; k++) {
    // Alternate which build goes first, so neither always follows the other's garbage.
    if (k % 2 === 0) {
      ta.push(batch(a.run[id]));
      tb.push(batch(b.run[id]));
    } else {
      tb.push(batch(b.run[id]));
      ta.push(batch(a.run[id]));
    }
  }
  const per = perRequest[id] ?? 1;
  const minA = Math.min(...ta) / per;
  const minB = Math.min(...tb) / per;
  rows.push([id, fmt(minA, 2), fmt(minB, 2), fmt(minB / minA, 2), `${fmt(median(ta) / per, 2)} / ${fmt(median(tb) / per, 2)}`]);
}
console.log(`CPU µs per request in one process (Node ${process.version}), fastest of ${batches} interleaved batches of ${fmt(iterations)}\n  A = ${values.a}\n  B = ${values.b}`);
console.log(formatTable(['scenario', 'A', 'B', 'B/A', 'medians A / B'], rows, ['A', 'B', 'B/A']));
await a.close();
await b.close();
