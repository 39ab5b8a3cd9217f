/**
 * Review 1, finding 1: the proxy learns the credentials its traffic carries (secrets.ts) so it can scrub them from
 * everything it keeps, and it keeps only so many. Past that bound, what it keeps must still hold no secret: an early
 * exchange's evidence in the report and its recorded fixture (the bound once evicted the oldest values, and the
 * report and fixtures were scrubbed only when written), and a late exchange's own credentials echoed in its own
 * answer. A value that a body showed before the traffic used it as a credential (a token handed out, then sent) is
 * still scrubbed from what was kept before.
 *
 * The target echoes the request's Authorization in each pet it answers and sets a cookie per answer: two secrets an
 * exchange, far more distinct ones than the bound. Its pets lack the deprecation headers getPet documents, so every
 * exchange breaks a rule and the first ones are the report's evidence.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReporter, REPORT_FORMATS } from '../reporters/index.js';
import { startTestProxy, startUpstream, type TestProxy } from './test-support/servers.js';

/** More distinct users than the bound of 256 learnt values: each brings a token and gets a cookie. */
const USERS = 300;
const token = (n: number): string => `Bearer tok-AAAA-${n}-${'x'.repeat(8)}`;
const cookie = (n: number): string => `ck-BBBB-${n}-${'y'.repeat(8)}`;
/** Handed out in a body first, sent as a credential only later. */
const ISSUED = 'issued-CCCC-0123456789';

describe('secrets past the bound of learnt values never reach the report, the recording or the HAR file', () => {
  let dir: string;
  let proxy: TestProxy;
  let target: Awaited<ReturnType<typeof startUpstream>>;
  let reportJson: string;
  let texts: string[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'proxy-secrets-bound-'));
    target = await startUpstream((req, res) => {
      const id = Number(/\/pets\/(\d+)/.exec(req.url ?? '')?.[1] ?? 0);
      res.writeHead(200, { 'content-type': 'application/json', 'set-cookie': `sid=${cookie(id)}; HttpOnly` });
      const echo = String(req.headers['authorization'] ?? '');
      // Pet 1000 hands out a key that later requests send as their credential.
      res.end(JSON.stringify({ id, name: 'Rex', categoryId: 1, status: 'available', echo, ...(id === 1000 ? { issued: ISSUED } : {}) }));
    });
    proxy = await startTestProxy({ target: target.url, record: dir, quiet: true });
    // A key handed out, then used: learnt after the answer that showed it was kept; then more users than the bound.
    await (await request(`${proxy.url}/pets/1000`)).body.text();
    await (await request(`${proxy.url}/pets/2000`, { headers: { authorization: `Bearer ${ISSUED}` } })).body.text();
    for (let n = 1; n <= USERS; n += 1) await (await request(`${proxy.url}/pets/${n}`, { headers: { authorization: token(n) } })).body.text();
    reportJson = await (await request(`${proxy.url}/__proxy/report?format=json`)).body.text();
    await proxy.close();
    texts = [proxy.lines.join('\n'), reportJson, ...REPORT_FORMATS.map((format) => createReporter(format, { redact: proxy.redact, color: false, quiet: true }).render(proxy.report()))];
    for (const file of await readdir(dir)) texts.push(await readFile(join(dir, file), 'utf8'));
  }, 120_000);
  afterAll(async () => {
    await target?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('keeps the early exchanges as evidence and records every pet (the test reaches what it means to)', async () => {
    const report = JSON.parse(reportJson) as { results: { verdict: string; evidence: { response?: { bodyExcerpt: string } }[] }[] };
    const excerpts = report.results.filter((r) => r.verdict === 'failed').flatMap((r) => r.evidence.map((e) => e.response?.bodyExcerpt ?? ''));
    // The first user's exchange is evidence, its echo scrubbed in place.
    expect(excerpts.some((text) => text.includes('"id":1,') && text.includes('"echo":"[redacted]"'))).toBe(true);
    const pets = JSON.parse(await readFile(join(dir, 'pets.json'), 'utf8')) as { id: number; echo: string; issued?: string }[];
    expect(pets).toHaveLength(USERS + 2);
    expect(pets.find((p) => p.id === 1)?.echo).toBe('[redacted]');
    expect(pets.find((p) => p.id === USERS)?.echo).toBe('[redacted]');
    expect(pets.find((p) => p.id === 1000)?.issued).toBe('[redacted]');
  });

  it('holds no token, cookie or issued key anywhere: lines, every report format, the fixtures, the HAR file', () => {
    for (const text of texts) {
      expect(text).not.toMatch(/tok-AAAA-\d/);
      expect(text).not.toMatch(/ck-BBBB-\d/);
      expect(text).not.toContain(ISSUED);
    }
  });

  it('says in the report that values past the bound were not learnt', () => {
    expect(proxy.report().warnings?.some((w) => /credential values? .*past the first 256/.test(w.message))).toBe(true);
  });
});
