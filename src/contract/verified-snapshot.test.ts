/**
 * The bundled document's verified snapshot (verified-snapshot.ts, issue 33 point 2): a start from it gets the very
 * document a start from the YAML gets, and a snapshot of other bytes (an edited openapi.yaml) is never used.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_SPEC_PATH } from '../package-info.js';
import { buildVerifiedSnapshot, loadDocument } from './load.js';
import { VERIFIED_SNAPSHOT, verifiedParse } from './verified-snapshot.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-kit-snapshot-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the verified snapshot of the bundled document', () => {
  it('the build writes it from a thorough load, keyed by the SHA-256 of the bytes read', async () => {
    const file = join(dir, 'snapshot.json');
    await buildVerifiedSnapshot(file);
    const sha256 = createHash('sha256').update(readFileSync(DEFAULT_SPEC_PATH)).digest('hex');
    expect(verifiedParse(sha256, file)).toMatchObject({ openapi: '3.0.3', paths: expect.any(Object) });
    // Other bytes, another verdict: never taken from the snapshot.
    expect(verifiedParse('0'.repeat(64), file)).toBeUndefined();
    expect(verifiedParse(sha256, join(dir, 'missing.json'))).toBeUndefined();
  });

  it('a load from it gives the document a load from the YAML gives', async () => {
    const sha256 = createHash('sha256').update(readFileSync(DEFAULT_SPEC_PATH)).digest('hex');
    // npm test builds dist/ first, so the snapshot the kit starts from is there and current.
    expect(verifiedParse(sha256, VERIFIED_SNAPSHOT), `${VERIFIED_SNAPSHOT} is missing or stale: run npm run build`).toBeDefined();
    const fromSnapshot = await loadDocument(DEFAULT_SPEC_PATH);
    const fromYaml = await loadDocument(DEFAULT_SPEC_PATH, { verifiedSnapshot: false });
    expect(fromSnapshot).not.toBe(fromYaml);
    expect(fromSnapshot.sha256).toBe(fromYaml.sha256);
    expect(fromSnapshot.oasVersion).toBe(fromYaml.oasVersion);
    expect(JSON.stringify(fromSnapshot.document)).toBe(JSON.stringify(fromYaml.document));
  });
});
