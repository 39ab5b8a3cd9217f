/**
 * A scripted front-end session: what a pet-shop page does in one sitting, happy paths, state rules and mistakes
 * alike. It talks through a `Send` function only, so the same script runs over HTTP (the real server) and through
 * MSW's handlers (msw.e2e.test.ts), and the two transcripts must be equal: one core, whichever transport.
 * Works on the bundled fixtures, in a session of its own.
 */

export interface SendRequest {
  readonly method: string;
  /** Path and query, e.g. `/pets?status=available`. */
  readonly target: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly json?: unknown;
}

export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

export type Send = (request: SendRequest) => Promise<Answer>;

export interface Step {
  readonly label: string;
  readonly status: number;
  /** The headers a front end reads; the rest (Date, Connection, …) belong to the transport. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

const READ_HEADERS = ['location', 'x-total-count', 'deprecation', 'sunset', 'link', 'allow', 'preference-applied', 'x-mock-unknown-query', 'content-type'];

export async function runFrontEndSession(send: Send, session: string): Promise<Step[]> {
  const steps: Step[] = [];
  const headers = { 'x-mock-session': session, accept: 'application/json' };
  const step = async (label: string, method: string, target: string, extra: { json?: unknown; headers?: Record<string, string> } = {}): Promise<Answer> => {
    const answer = await send({ method, target, headers: { ...headers, ...extra.headers }, ...(extra.json !== undefined ? { json: extra.json } : {}) });
    const read: Record<string, string> = {};
    for (const name of READ_HEADERS) {
      const value = answer.headers[name];
      if (value !== undefined) read[name] = value;
    }
    steps.push({ label, status: answer.status, headers: read, body: answer.body });
    return answer;
  };
  const idOf = (answer: Answer): number => {
    const id = (answer.body as { id?: unknown }).id;
    if (typeof id !== 'number') throw new Error(`expected a record with an id, got ${JSON.stringify(answer.body)}`);
    return id;
  };

  await step('browse categories', 'GET', '/categories');
  await step('browse available pets, page 1', 'GET', '/pets?status=available&limit=5');
  await step('browse available pets, page 2', 'GET', '/pets?status=available&limit=5&offset=5');
  const category = idOf(await step('add a category', 'POST', '/categories', { json: { name: 'Ferrets', description: 'Small and curious' } }));
  await step('the same name again is a conflict', 'POST', '/categories', { json: { name: 'ferrets' } });
  const pet = idOf(await step('add a pet', 'POST', '/pets', { json: { name: 'Fuzz', categoryId: category } }));
  await step('a typo in the form is a 400 with details', 'POST', '/pets', { json: { nmae: 'Fuzz', categoryId: category } });
  await step('an unknown category is a 422', 'POST', '/pets', { json: { name: 'Ghost', categoryId: 999 } });
  await step('read it the deprecated way', 'GET', `/pets/${pet}`);
  await step('read it the successor way', 'GET', `/pets?id=${pet}`);
  await step('its stock', 'GET', `/store/inventory/${pet}`);
  const order = idOf(await step('order it', 'POST', '/store/orders', { json: { petId: pet, quantity: 1 } }));
  await step('the pet is pending', 'GET', `/pets?id=${pet}`);
  await step('order it again: not available', 'POST', '/store/orders', { json: { petId: pet, quantity: 1 } });
  await step('delete a pet with an open order', 'DELETE', `/pets/${pet}`);
  await step('complete the order', 'PATCH', `/store/orders/${order}`, { json: { complete: true } });
  await step('reopen it: refused', 'PATCH', `/store/orders/${order}`, { json: { complete: false } });
  await step('cancel it: refused', 'DELETE', `/store/orders/${order}`);
  await step('the stock follows the pet', 'GET', `/store/inventory/${pet}`);
  await step('sold pets', 'GET', '/pets?status=sold');
  await step('orders of the pet', 'GET', `/store/orders?petId=${pet}`);
  await step('a category with pets cannot go', 'DELETE', `/categories/${category}`);
  await step('a misspelled filter is named', 'GET', '/pets?stauts=sold&limit=3');
  await step('a wrong method is a 405 with Allow', 'PATCH', '/pets', { json: { name: 'x' } });
  await step('an unknown path is a 404', 'GET', '/petz');
  await step('rehearse an error: a forced 404', 'GET', `/pets/${pet}`, { headers: { prefer: 'code=404' } });
  await step('rehearse the sunset', 'GET', `/pets/${pet}`, { headers: { 'x-mock-now': '2027-07-01T00:00:00Z' } });
  await step('JSON only', 'GET', '/pets', { headers: { accept: 'text/html' } });
  await step('restock', 'PUT', `/store/inventory/${pet}`, { json: { quantity: 3 } });
  await step('the whole inventory, sold', 'GET', '/store/inventory?status=sold&limit=100');
  return steps;
}
