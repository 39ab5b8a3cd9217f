/**
 * Regression: the mock hard-coded its 1 MiB body limit while the runner read
 * the document's `x-max-body-bytes`, so a document declaring another limit
 * had a mock and a runner that disagreed. The mock now takes the limit from
 * the document's root `x-max-body-bytes`: here a copy of openapi.yaml that
 * declares 2048 bytes. Real mock over HTTP, answers validated against the
 * contract by the contract client.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_PATH } from '../../src/package-info.js';
import { bodyLimitOf, BODY_LIMIT } from '../transport/body.js';
import { expectError, newCategory, sessionName, startTestMock, type TestMock } from '../test-support/harness.js';

const SMALL_LIMIT = 2048;
const DECLARED = 'x-max-body-bytes: 1048576';

/** A valid NewPet padded with spaces to exactly `bytes` (JSON allows whitespace after a value; all ASCII, so characters are bytes). */
function petBodyOf(bytes: number, categoryId: number): string {
  const text = JSON.stringify({ name: 'Rex', categoryId });
  return text + ' '.repeat(bytes - text.length);
}

describe('the mock reads its body limit from the document (x-max-body-bytes)', () => {
  let dir: string;
  let t: TestMock;
  let categoryId: number;
  let session: string;

  beforeAll(async () => {
    const document = readFileSync(DEFAULT_SPEC_PATH, 'utf8');
    // The copy differs from openapi.yaml in the declared limit alone.
    expect(document.split(DECLARED)).toHaveLength(2);
    dir = mkdtempSync(join(tmpdir(), 'petstore-body-limit-'));
    writeFileSync(join(dir, 'openapi.yaml'), document.replace(DECLARED, `x-max-body-bytes: ${SMALL_LIMIT}`));
    t = await startTestMock({ specPath: join(dir, 'openapi.yaml') });
    session = sessionName('body-limit');
    categoryId = (await newCategory(t.client.session(session))).id;
  });
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('takes a body of exactly the declared limit', async () => {
    const api = t.client.session(session);
    const answer = await api.send('POST', '/pets', { body: petBodyOf(SMALL_LIMIT, categoryId), headers: { 'content-type': 'application/json' } });
    expect(answer.status, answer.text).toBe(201);
  });

  it('refuses one byte more with 413, naming the declared limit, and creates nothing', async () => {
    const api = t.client.session(session);
    const before = await api.get('/pets?limit=100');
    const answer = await api.send('POST', '/pets', { body: petBodyOf(SMALL_LIMIT + 1, categoryId), headers: { 'content-type': 'application/json' } });
    expect(String(expectError(answer, 413, 'PAYLOAD_TOO_LARGE')['message'])).toContain(`${SMALL_LIMIT} bytes`);
    expect((await api.get('/pets?limit=100')).body).toEqual(before.body);
  });
});

describe('bodyLimitOf', () => {
  it('is the declared positive integer, and 1 MiB when the document declares none or nonsense', () => {
    expect(bodyLimitOf({ 'x-max-body-bytes': 2048 })).toBe(2048);
    expect(bodyLimitOf({})).toBe(BODY_LIMIT);
    for (const nonsense of [0, -1, 1.5, '2048', null]) expect(bodyLimitOf({ 'x-max-body-bytes': nonsense })).toBe(BODY_LIMIT);
  });
});
