#!/usr/bin/env node
// The floor: the least any correct server of GET /pets/{petId} and POST /pets
// must do, written as plainly as node:http allows, so `bench/floor.mjs` can
// tell how much of the mock's distance to the bare baseline is the mock's
// design and how much is the work itself (issue 14, point 4).
//
// Per request it does only what the contract requires of every implementation:
//   GET:  validate petId with the document's compiled Ajv validator, read the
//         pet from a Map, encode it, and send the deprecation headers (Link
//         names the pet) and Content-Length;
//   POST: read and JSON.parse the body, validate it with the document's
//         compiled Ajv validator, give it the next id, store the frozen record
//         in a Map (a real backend keeps what it creates), encode it, and send
//         Location and Content-Length.
// It answers with the mock's recorded headers (CORS and deprecation values,
// the same names in the same order), so all three servers put the same bytes
// on the wire. No sessions, journal, indexes, Prefer handling or error
// catalogue: those are the mock's own features, not the floor's.
//
//   node bench/floor-server.mjs --responses FILE [--port 0] [--host 127.0.0.1]
// FILE is the JSON the bench records from the mock ({ getPet | createPet: { status, headers, body } }).
// Needs dist/ (npm run build): it compiles openapi.yaml with the project's own loader.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { listenUntilSignal } from './lib/serve.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Written by node:http itself, or computed per answer below. */
const PER_ANSWER = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length', 'location', 'link']);

/** The recorded headers every answer repeats as they are, in order. */
function fixedHeaders(recorded) {
  const out = {};
  for (const [name, value] of Object.entries(recorded?.headers ?? {})) if (!PER_ANSWER.has(name.toLowerCase())) out[name.toLowerCase()] = value;
  return out;
}

/** Headers by assignment, not `{ ...fixed, more }`: in Node 20's V8 a spread followed by properties costs about 1 µs. */
function headersWith(fixed, name, value, length) {
  const headers = {};
  for (const key in fixed) headers[key] = fixed[key];
  if (name !== undefined) headers[name] = value;
  headers['content-length'] = String(length);
  return headers;
}

async function main() {
  const { values } = parseArgs({ options: { port: { type: 'string', default: '0' }, host: { type: 'string', default: '127.0.0.1' }, responses: { type: 'string' } } });
  if (!values.responses) throw new Error('--responses FILE is required (the answers the bench recorded from the mock)');
  const recorded = JSON.parse(readFileSync(values.responses, 'utf8'));
  const { loadContract } = await import(`${ROOT}dist/src/contract/index.js`);
  const { compileContract } = await import(`${ROOT}dist/src/schema/index.js`);
  const compiled = compileContract(await loadContract(`${ROOT}openapi.yaml`));
  const getPet = compiled.operations.get('getPet');
  const createPet = compiled.operations.get('createPet');

  const pets = new Map();
  let nextId = 1;
  const getFixed = fixedHeaders(recorded.getPet);
  // The Link header as the mock wrote it, cut around the pet's id so each answer names its own pet.
  let linkParts;
  if (recorded.getPet) {
    const pet = JSON.parse(recorded.getPet.body);
    pets.set(pet.id, Object.freeze(pet));
    nextId = pet.id + 1;
    const link = Object.entries(recorded.getPet.headers).find(([name]) => name.toLowerCase() === 'link')?.[1];
    if (typeof link === 'string' && link.includes(`id=${pet.id}>`)) linkParts = link.split(`id=${pet.id}>`);
  }
  const createFixed = fixedHeaders(recorded.createPet);
  if (recorded.createPet) nextId = Math.max(nextId, JSON.parse(recorded.createPet.body).id);

  const refuse = (res, status) => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': '2' });
    res.end('{}');
  };

  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (req.method === 'GET' && url.startsWith('/pets/')) {
      const id = url.slice(6);
      const params = getPet.parameters({ path: { petId: id }, query: {}, headers: req.headers });
      const pet = params.ok ? pets.get(params.values.path.petId) : undefined;
      if (!pet) return refuse(res, params.ok ? 404 : 400);
      const text = JSON.stringify(pet);
      res.writeHead(200, headersWith(getFixed, linkParts ? 'link' : undefined, linkParts ? `${linkParts[0]}id=${pet.id}>${linkParts[1]}` : undefined, Buffer.byteLength(text)));
      res.end(text);
      return;
    }
    if (req.method !== 'POST' || url !== '/pets') return refuse(res, 404);
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      let body;
      try {
        body = JSON.parse((chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)).toString('utf8'));
      } catch {
        return refuse(res, 400);
      }
      if (createPet.body(body).length > 0) return refuse(res, 400);
      const pet = Object.freeze({ id: nextId++, name: body.name, categoryId: body.categoryId, status: body.status ?? 'available' });
      pets.set(pet.id, pet);
      const text = JSON.stringify(pet);
      res.writeHead(201, headersWith(createFixed, 'location', `/pets/${pet.id}`, Buffer.byteLength(text)));
      res.end(text);
    });
  });

  listenUntilSignal(server, values.host, Number(values.port));
}

await main();
