/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * The page of the browser test (browser.e2e.test.ts), bundled for Chromium with esbuild. It does what front-end
 * code does: (a) calls the HTTP mock on another origin and reads what CORS lets it read, then (b) starts MSW's
 * worker with `petstore-kit/msw/browser` and makes the same calls through it. It writes what it saw as JSON into
 * the page, for the test to assert, and as a table, for the screenshot. browser-app.ts runs it, bundling only what a
 * page serving the Pet Store imports.
 */
import { setupWorker } from 'msw/browser';
import { DEFAULT_MSW_ORIGIN, type BrowserMockData, type MswMock } from '../msw/browser.js';

export interface Probe {
  readonly listStatus: number;
  readonly totalCount: string | null;
  readonly listed: number;
  readonly deprecation: string | null;
  readonly sunset: string | null;
  readonly link: string | null;
  readonly wrongMethodStatus: number;
  readonly allow: string | null;
  readonly wrongMethodCode: string;
  readonly petStatusAfterOrder: string;
  readonly deleteWithOpenOrder: string;
}

async function probe(base: string, session: string): Promise<Probe> {
  const headers = { 'x-mock-session': session };
  const json = { ...headers, 'content-type': 'application/json' };
  const list = await fetch(`${base}/pets?status=available&limit=3`);
  const listed = ((await list.json()) as unknown[]).length;
  const one = await fetch(`${base}/pets/1`);
  const wrong = await fetch(`${base}/pets`, { method: 'PATCH', headers: json, body: '{}' });
  const wrongBody = (await wrong.json()) as { code: string };

  const category = (await (await fetch(`${base}/categories`, { method: 'POST', headers: json, body: JSON.stringify({ name: `Page ${session}` }) })).json()) as { id: number };
  const pet = (await (await fetch(`${base}/pets`, { method: 'POST', headers: json, body: JSON.stringify({ name: 'Clicky', categoryId: category.id }) })).json()) as { id: number };
  await fetch(`${base}/store/orders`, { method: 'POST', headers: json, body: JSON.stringify({ petId: pet.id, quantity: 1 }) });
  const after = (await (await fetch(`${base}/pets?id=${pet.id}`, { headers })).json()) as { status: string }[];
  const refused = (await (await fetch(`${base}/pets/${pet.id}`, { method: 'DELETE', headers })).json()) as { code: string };

  return {
    listStatus: list.status,
    totalCount: list.headers.get('X-Total-Count'),
    listed,
    deprecation: one.headers.get('Deprecation'),
    sunset: one.headers.get('Sunset'),
    link: one.headers.get('Link'),
    wrongMethodStatus: wrong.status,
    allow: wrong.headers.get('Allow'),
    wrongMethodCode: wrongBody.code,
    petStatusAfterOrder: after[0]?.status ?? '(none)',
    deleteWithOpenOrder: refused.code,
  };
}

function show(id: string, title: string, value: unknown): void {
  const section = document.createElement('section');
  const heading = document.createElement('h2');
  heading.textContent = title;
  const pre = document.createElement('pre');
  pre.id = id;
  pre.textContent = JSON.stringify(value, null, 2);
  section.append(heading, pre);
  document.body.append(section);
}

/** The page's run, with the mock its entry makes from the data Node prepared. */
export async function runPage(createMock: (data: BrowserMockData) => MswMock): Promise<void> {
  try {
    await main(createMock);
  } catch (error: unknown) {
    show('error', 'error', String(error instanceof Error ? (error.stack ?? error.message) : error));
    document.body.dataset['done'] = 'error';
  }
}

async function main(createMock: (data: BrowserMockData) => MswMock): Promise<void> {
  const mockUrl = new URLSearchParams(location.search).get('mock') ?? '';
  show('http', `(a) the HTTP mock at ${mockUrl}, from ${location.origin}`, await probe(mockUrl, 'page-http'));

  const data = (await (await fetch('/data.json')).json()) as BrowserMockData;
  const mock = createMock(data);
  await setupWorker(...mock.handlers).start({ serviceWorker: { url: '/mockServiceWorker.js' }, onUnhandledRequest: 'bypass', quiet: true });
  show('msw', `(b) the same calls through MSW's worker, to ${DEFAULT_MSW_ORIGIN}`, await probe(DEFAULT_MSW_ORIGIN, 'page-msw'));
  document.body.dataset['done'] = 'yes';
}
