/**
 * Regression (issue 9, point 1): a target that assigns ids above 2^53 (int64,
 * as Java `long` or snowflake ids produce) is read back at exactly the path
 * of the id it gave. Before lossless parsing the runner created
 * 4590224790122085204 and then read `/pets/4590224790122085400`.
 *
 * The target is our mock behind a proxy that shifts every id by 4590224790122085000
 * on the way out and back on the way in (paths, the id filters, bodies,
 * Location and Link), so it is the mock with big ids and nothing else changed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMock, type RunningMock } from '../mock/transport/server.js';
import { startProxy, type RunningProxy } from '../fixtures/defective/proxy.js';
import type { CheckResult, RunReport } from './model.js';
import { runConformance } from './runner.js';

const OFFSET = 4590224790122085000n;
/** Any id below the offset names nothing in the big-id world: the mock gets one it has not either. */
const ABSENT_IN_MOCK = '9007199254740991';
const ID_FIELDS = /"(id|petId|categoryId)"(\s*):(\s*)(-?\d+)(?=\s*[,}\]])/g;
const ID_PARAMS = new Set(['id', 'petId', 'categoryId']);

function inward(text: string): string {
  if (!/^\d+$/.test(text)) return text; // 0 is fine as is; -1, 1.5, abc stay invalid
  const value = BigInt(text);
  if (value === 0n || value > 2n ** 63n - 1n) return text;
  return value > OFFSET ? String(value - OFFSET) : ABSENT_IN_MOCK;
}

const outward = (text: string): string => String(OFFSET + BigInt(text));

function shiftPath(path: string, shift: (segment: string) => string): string {
  return path
    .split('/')
    .map((segment) => (/^\d+$/.test(segment) ? shift(segment) : segment))
    .join('/');
}

describe('a target that assigns ids above 2^53', () => {
  let mock: RunningMock;
  let proxy: RunningProxy;
  let report: RunReport;
  const paths: string[] = [];
  const createdIds: string[] = [];

  beforeAll(async () => {
    mock = await startMock({ port: 0, host: '127.0.0.1', quiet: true });
    proxy = await startProxy(async (request, next) => {
      paths.push(`${request.method} ${request.path}${request.search}`);
      const params = new URLSearchParams(request.search);
      const query = new URLSearchParams();
      for (const [name, value] of params) query.append(name, ID_PARAMS.has(name) ? inward(value) : value);
      const search = request.search ? `?${query.toString()}` : '';
      // Shorter ids make a shorter body: pad it back with JSON whitespace so a body over a size limit stays over it.
      const original = request.body.toString('utf8');
      const body = Buffer.from(original.replace(ID_FIELDS, (_, name: string, a: string, b: string, n: string) => `"${name}"${a}:${b}${inward(n)}`).padEnd(original.length, ' '));
      const answer = await next({ ...request, path: shiftPath(request.path, inward), search, body });
      const text = answer.body.toString('utf8').replace(ID_FIELDS, (_, name: string, a: string, b: string, n: string) => `"${name}"${a}:${b}${n.startsWith('-') ? n : outward(n)}`);
      const headers: Record<string, string> = { ...answer.headers };
      if (headers['location']) headers['location'] = shiftPath(headers['location'], outward);
      if (headers['link']) headers['link'] = headers['link'].replace(/([?&]id=)(\d+)/g, (_, p: string, n: string) => `${p}${outward(n)}`);
      if (request.method === 'POST' && answer.status === 201) {
        const id = /"id":(\d+)/.exec(text)?.[1];
        if (id) createdIds.push(id);
      }
      return { ...answer, headers, body: Buffer.from(text) };
    }, mock.url);
    report = await runConformance({ baseUrl: proxy.url, seed: 4 });
  }, 120_000);

  afterAll(async () => {
    await proxy?.close();
    await mock?.close();
  });

  it('passes every check, with zero findings', () => {
    const failed: CheckResult[] = report.results.filter((r) => r.verdict === 'failed');
    expect(failed.map((r) => `${r.checkId} ${r.title}: ${r.reason ?? ''} ${r.findings[0]?.message ?? ''}`)).toEqual([]);
    expect(report.summary.passed).toBeGreaterThan(50);
  });

  it('reads a created record back at exactly the path of its id (4590224790122085…), never a rounded one', () => {
    expect(createdIds.length).toBeGreaterThan(5);
    expect(createdIds.every((id) => BigInt(id) > 2n ** 53n)).toBe(true);
    for (const id of createdIds.slice(0, 5)) expect(paths.some((p) => p.includes(`/${id}`) || p.includes(`=${id}`)), id).toBe(true);
    // A rounded id would be a multiple of 8 or more ending in zeros: every id-bearing request names an id the target gave.
    const named = paths.flatMap((p) => [...p.matchAll(/(?:\/|=)(45902247901220\d{5})(?=$|[/&?])/g)].map((m) => m[1]!));
    expect(named.length).toBeGreaterThan(10);
    const given = new Set(createdIds);
    const unknown = named.filter((id) => !given.has(id) && BigInt(id) - OFFSET > 20n);
    expect(unknown).toEqual([]);
  });
});
