/**
 * Review 1, finding 14: a 2,000-level chain of `allOf` `$ref`s is refused cleanly (SPEC_INVALID), but its message was
 * a 4 KB pointer. Messages clip long pointers to their first and last segments; the full pointer stays in details.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { clipPointers } from './clip-pointers.js';
import { loadDocument } from './contract/load.js';
import { describeUnmakeable } from './generate/result.js';
import { KitError } from './kit-error.js';

const LONG = `#/paths/~1things/get/responses/200/content/application~1json/schema${'/allOf/0'.repeat(500)}/properties/name`;

describe('clipPointers', () => {
  it('keeps the first eight and the last four segments of a long pointer, and says how many it leaves out', () => {
    expect(clipPointers(`at ${LONG}: no value`)).toBe('at #/paths/~1things/get/responses/200/content/application~1json/schema/…(998 segments)…/allOf/0/properties/name: no value');
  });

  it('leaves short pointers, and text without any, as they are', () => {
    const text = `${'x'.repeat(300)} at #/components/schemas/Thing/properties/name, see /tmp/api.yaml`;
    expect(clipPointers(text)).toBe(text);
  });

  it('cuts a pointer of a few very long segments', () => {
    const clipped = clipPointers(`/${'a'.repeat(1000)}/b`);
    expect(clipped.length).toBeLessThan(210);
    expect(clipped.endsWith('…')).toBe(true);
  });

  it('a KitError clips its message and reason, and keeps the pointer whole in its details', () => {
    const error = new KitError('SPEC_INVALID', `api.yaml at ${LONG} is not valid`, { pointer: LONG, reason: `deep at ${LONG}` });
    expect(error.message.length).toBeLessThan(300);
    expect(error.details.reason!.length).toBeLessThan(300);
    expect(error.details.pointer).toBe(LONG);
  });

  it("the generator's reports are clipped as they are worded, the spot kept whole", () => {
    const why = { at: LONG, keyword: 'type', message: 'it nests deeper than the 32 levels a generated value may have' };
    expect(describeUnmakeable(why)).toMatch(/^#\/paths\/~1things.*\/…\(998 segments\)…\/allOf\/0\/properties\/name: it nests deeper/);
    expect(describeUnmakeable(why).length).toBeLessThan(300);
  });
});

describe('a document of 2,000 allOf levels', () => {
  it('is refused with SPEC_INVALID in a message of a few hundred characters, not 4 KB', async () => {
    const levels = 2000;
    const lines = ['openapi: 3.0.3', "info: { title: deep, version: '1' }", 'paths:', '  /things:', '    get:', '      responses:', "        '200':", '          description: ok', '          content:', '            application/json:', "              schema: { $ref: '#/components/schemas/S0' }", 'components:', '  schemas:'];
    for (let i = 0; i < levels; i += 1) lines.push(`    S${i}: { allOf: [ { $ref: '#/components/schemas/S${i + 1}' } ] }`);
    lines.push(`    S${levels}: { type: string }`);
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-kit-clip-')), 'deep.yaml');
    writeFileSync(file, `${lines.join('\n')}\n`);
    const error: unknown = await loadDocument(file).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(KitError);
    const kit = error as KitError;
    expect(kit.code).toBe('SPEC_INVALID');
    expect(kit.message.length).toBeLessThan(1000);
    expect(kit.message).toMatch(/at \/paths\/~1things\/get\/responses\/200\/content\/application~1json\/schema\/…\(\d+ segments\)…/);
    expect(kit.details.pointer!.length).toBeGreaterThan(kit.message.length);
  }, 60_000);
});
