import { describe, expect, it } from 'vitest';
import { createJournal } from './journal.js';
import type { MockRequest } from '../engine/message.js';

describe('the request journal', () => {
  it('keeps the kept headers only, the first of a repeated one, a long one cut, and the body read', () => {
    const journal = createJournal(4);
    const request: MockRequest = {
      method: 'POST',
      path: '/pets',
      query: {},
      headers: { 'content-type': 'application/json', accept: ['application/json', 'text/plain'], authorization: 'Bearer secret', 'x-mock-session': 's'.repeat(250), 'x-mock-now': '2027-01-01T00:00:00Z' },
      body: { kind: 'bytes', bytes: new TextEncoder().encode('{"name":"Rex"}') },
    };
    journal.record(request, 201, 'createPet', true);
    expect(journal.list({})).toEqual([
      {
        seq: 1,
        method: 'POST',
        path: '/pets',
        query: {},
        operationId: 'createPet',
        headers: { 'content-type': 'application/json', accept: 'application/json', 'x-mock-session': `${'s'.repeat(200)}…`, 'x-mock-now': '2027-01-01T00:00:00Z' },
        body: { name: 'Rex' },
        status: 201,
      },
    ]);
  });

  it('keeps a request whose headers do not fit a slot whole, as it came', () => {
    const journal = createJournal(2);
    const long = 'o'.repeat(190);
    const headers = { 'content-type': long, accept: long, prefer: long, origin: long, 'x-mock-session': long, 'x-mock-now': long };
    journal.record({ method: 'GET', path: '/pets', query: {}, headers }, 200, 'listPets', false);
    expect(journal.list({})[0]).toMatchObject({ seq: 1, path: '/pets', headers, status: 200 });
  });
});
