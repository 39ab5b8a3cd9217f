import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { KitError } from '../kit-error.js';
import { DEFAULT_SPEC_PATH } from '../package-info.js';
import { loadContract } from './index.js';

const dir = mkdtempSync(join(tmpdir(), 'petstore-kit-load-'));
function write(name: string, text: string): string {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

async function failure(path: string): Promise<KitError> {
  const error: unknown = await loadContract(path).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KitError);
  return error as KitError;
}

describe('loadContract fails with the file, a pointer and the reason', () => {
  it('on a missing file', async () => {
    const error = await failure(join(dir, 'nope.yaml'));
    expect(error.code).toBe('SPEC_NOT_FOUND');
    expect(error.message).toContain('nope.yaml');
    expect(error.message).toContain('no such file');
  });

  it('on invalid YAML', async () => {
    const file = write('broken.yaml', 'openapi: 3.0.3\ninfo: [unclosed\n  title: x\n');
    const error = await failure(file);
    expect(error.code).toBe('SPEC_UNPARSABLE');
    expect(error.message).toContain(file);
    expect(error.details.reason).toBeTruthy();
  });

  it.each([
    ['Swagger 2.0', 'swagger: "2.0"\ninfo: { title: x, version: "1" }\npaths: {}\n', 'swagger: 2.0'],
    ['OpenAPI 3.2', 'openapi: 3.2.0\ninfo: { title: x, version: "1" }\npaths: {}\n', 'openapi: 3.2.0'],
    ['no version at all', 'info: { title: x, version: "1" }\n', 'no openapi field'],
  ])('on a document that is not OpenAPI 3.0.x or 3.1.x: %s', async (_name, text, found) => {
    const error = await failure(write(`v-${found.replace(/\W/g, '')}.yaml`, text));
    expect(error.code).toBe('SPEC_UNSUPPORTED_VERSION');
    expect(error.details.pointer).toBe('/openapi');
    expect(error.message).toContain(found);
  });

  it('on a document that breaks the OpenAPI schema, with the pointer (--strict; else it loads with a warning, issue 32)', async () => {
    const text = readFileSync(DEFAULT_SPEC_PATH, 'utf8').replace("  /pets:\n    get:\n      operationId: listPets\n", '  /pets:\n    get:\n      operationId: listPets\n      responses-typo: 1\n');
    const lenient = await loadContract(write('invalid.yaml', text));
    expect(lenient.warnings.some((w) => w.pointer.startsWith('/paths') && /OpenAPI schema/.test(w.message))).toBe(true);
    const error = await loadContract(write('invalid.yaml', text), { strictSchema: true }).then(
      () => {
        throw new Error('loaded under --strict');
      },
      (e: unknown) => e as KitError,
    );
    expect(error.code).toBe('SPEC_INVALID');
    expect(error.message).toContain('invalid.yaml');
    expect(error.details.pointer).toMatch(/^\/paths/);
  });

  it('on a broken $ref', async () => {
    const text = readFileSync(DEFAULT_SPEC_PATH, 'utf8').replace("$ref: '#/components/schemas/Pets'", "$ref: '#/components/schemas/Petz'");
    const error = await failure(write('badref.yaml', text));
    expect(error.code).toBe('SPEC_INVALID');
    expect(error.message).toContain('Petz');
  });
});

describe('loadContract on the bundled document', () => {
  it('indexes operations by id and path, with the SHA-256 of the bytes read', async () => {
    const contract = await loadContract(DEFAULT_SPEC_PATH);
    expect(contract.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(contract.pathMethods.get('/pets/{petId}')).toEqual(['GET', 'PUT', 'DELETE']);
    // Allow's order is the document's (get, patch, delete here), not the order of HTTP_METHODS (which puts delete first).
    expect(contract.pathMethods.get('/store/orders/{orderId}')).toEqual(['GET', 'PATCH', 'DELETE']);
    expect(contract.operationsById.get('updateOrder')?.method).toBe('patch');
    expect(Object.isFrozen(contract)).toBe(true);
  });
});

describe('loadContract on a document of one file from elsewhere (issue 22, point 8)', () => {
  it('parses, checks and dereferences it without copying it', async () => {
    // A copy of GitHub's 13 MB description costs a third of a second and its memory; the loader used to make three.
    const clone = vi.spyOn(globalThis, 'structuredClone');
    try {
      const contract = await loadContract(write('one-file.yaml', readFileSync(DEFAULT_SPEC_PATH, 'utf8')));
      expect(contract.operationsById.get('getPet')?.pathTemplate).toBe('/pets/{petId}');
      expect(clone).not.toHaveBeenCalled();
    } finally {
      clone.mockRestore();
    }
  });
});
