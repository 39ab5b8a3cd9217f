import { describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { API_ERROR_CODES } from '../api-error-codes.js';
import { bundledContract } from '../test-support.js';

// The brief's table (../shared/design/contract.md): operationId → method, path, tag, statuses.
const BRIEF = [
  ['listPets', 'GET', '/pets', 'Pets', ['200', '400']],
  ['createPet', 'POST', '/pets', 'Pets', ['201', '400', '422']],
  ['getPet', 'GET', '/pets/{petId}', 'Pets', ['200', '400', '404', '410']],
  ['replacePet', 'PUT', '/pets/{petId}', 'Pets', ['200', '400', '404', '422']],
  ['deletePet', 'DELETE', '/pets/{petId}', 'Pets', ['204', '404', '409']],
  ['listCategories', 'GET', '/categories', 'Pets', ['200', '400']],
  ['createCategory', 'POST', '/categories', 'Pets', ['201', '400', '409']],
  ['getCategory', 'GET', '/categories/{categoryId}', 'Pets', ['200', '400', '404']],
  ['replaceCategory', 'PUT', '/categories/{categoryId}', 'Pets', ['200', '400', '404', '409']],
  ['deleteCategory', 'DELETE', '/categories/{categoryId}', 'Pets', ['204', '404', '409']],
  ['listOrders', 'GET', '/store/orders', 'Store', ['200', '400']],
  ['placeOrder', 'POST', '/store/orders', 'Store', ['201', '400', '409', '422']],
  ['getOrder', 'GET', '/store/orders/{orderId}', 'Store', ['200', '400', '404']],
  ['updateOrder', 'PATCH', '/store/orders/{orderId}', 'Store', ['200', '400', '404', '409']],
  ['cancelOrder', 'DELETE', '/store/orders/{orderId}', 'Store', ['204', '404', '409']],
  ['listInventory', 'GET', '/store/inventory', 'Store', ['200', '400']],
  ['getInventoryItem', 'GET', '/store/inventory/{petId}', 'Store', ['200', '400', '404']],
  ['updateInventory', 'PUT', '/store/inventory/{petId}', 'Store', ['200', '400', '404']],
] as const;

const COLLECTIONS = ['listPets', 'listCategories', 'listOrders', 'listInventory'];
const CREATES = { createPet: ['getPet', 'replacePet', 'deletePet'], createCategory: ['getCategory', 'replaceCategory', 'deleteCategory'], placeOrder: ['getOrder'] };

describe('openapi.yaml', async () => {
  const { contract } = await bundledContract();

  it('is OpenAPI 3.0.3, version 1.0.0, served at the {base_url} variable', () => {
    expect(contract.document.openapi).toBe('3.0.3');
    expect(contract.version).toBe('1.0.0');
    expect(contract.document.servers?.[0]?.url).toBe('{base_url}');
    expect(contract.document.servers?.[0]?.variables?.['base_url']?.default).toBe('http://localhost:4010');
  });

  it('has exactly the 18 operations of the brief', () => {
    expect(contract.operations.map((o) => o.operationId).sort()).toEqual(BRIEF.map(([id]) => id).sort());
  });

  it.each(BRIEF)('%s is %s %s, tagged %s, with the statuses of the brief and the common errors', (id, method, path, tag, statuses) => {
    const operation = contract.operationsById.get(id)!;
    expect(operation.method.toUpperCase()).toBe(method);
    expect(operation.pathTemplate).toBe(path);
    expect(operation.tags).toEqual([tag]);
    const documented = [...operation.responses.keys()];
    for (const status of [...statuses, '406', '413', '500']) expect(documented).toContain(status);
    if (operation.requestBody) expect(documented).toContain('415');
    // Every error answer has the Error shape.
    for (const [status, response] of operation.responses) {
      if (Number(status) < 400) continue;
      const schema = response.content.find((m) => m.mediaType === 'application/json')?.schema;
      expect(schema?.required, `${id} ${status}`).toEqual(['code', 'message', 'status']);
    }
  });

  it('answers X-Total-Count on every collection and Location on every 201', () => {
    for (const id of COLLECTIONS) {
      expect(contract.operationsById.get(id)!.responses.get('200')!.headers.map((h) => h.name)).toContain('X-Total-Count');
    }
    for (const operation of contract.operations) {
      const created = operation.responses.get('201');
      if (created) expect(created.headers.map((h) => h.name), operation.operationId).toContain('Location');
    }
  });

  it('links each create to the read, replace and delete of what it created', () => {
    for (const [create, targets] of Object.entries(CREATES)) {
      const links = contract.operationsById.get(create)!.responses.get('201')!.links;
      for (const target of targets) {
        const link = links.find((l) => l.operationId === target);
        expect(link, `${create} → ${target}`).toBeDefined();
        expect(Object.values(link!.parameters)).toEqual(['$response.body#/id']);
      }
    }
  });

  it('deprecates getPet with its dates, successor and headers on every response', () => {
    const getPet = contract.operationsById.get('getPet')!;
    expect(getPet.deprecated).toBe(true);
    expect(getPet.deprecation?.deprecatedAt?.toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(getPet.deprecation?.sunset?.toISOString()).toBe('2027-06-30T23:59:59.000Z');
    expect(getPet.deprecation?.successorTemplate).toBe('/pets?id={petId}');
    expect(getPet.deprecation?.documentationUrl).toMatch(/^https:\/\//);
    for (const [status, response] of getPet.responses) {
      expect(response.headers.map((h) => h.name).sort(), status).toEqual(['Deprecation', 'Link', 'Sunset']);
    }
  });

  it('declares Deprecation on no other operation', () => {
    const others = contract.operations.filter((o) => o.operationId !== 'getPet');
    for (const operation of others) {
      expect(operation.deprecated).toBe(false);
      for (const response of operation.responses.values()) {
        expect(response.headers.map((h) => h.name.toLowerCase())).not.toContain('deprecation');
      }
    }
  });

  it('lists every error code in x-error-codes, in step with the mock’s closed set', () => {
    expect([...contract.errorCodes.keys()].sort()).toEqual([...API_ERROR_CODES].sort());
    for (const spec of contract.errorCodes.values()) {
      expect(spec.code).toMatch(/^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/);
      expect(spec.status).toBeGreaterThanOrEqual(400);
      expect(spec.description.length).toBeGreaterThan(10);
    }
  });

  it('closes the input shapes and leaves the stored shapes open', () => {
    const schemas = contract.document.components!.schemas as Record<string, OpenAPIV3.SchemaObject>;
    for (const name of ['NewPet', 'NewCategory', 'NewOrder', 'OrderUpdate', 'InventoryUpdate']) expect(schemas[name]!.additionalProperties, name).toBe(false);
    for (const name of ['Pet', 'Category', 'Order', 'InventoryItem', 'Error']) expect(schemas[name]!.additionalProperties, name).toBeUndefined();
    expect(schemas['Pet']!.required).toEqual(['id', 'name', 'categoryId']);
    expect(schemas['InventoryItem']!.required).toEqual(['petId', 'quantity', 'status']);
    expect(schemas['Order']!.required).toBeUndefined();
    expect(schemas['PetStatus']!.enum).toEqual(['available', 'pending', 'sold']);
  });

  it('documents the router-level 404 and 405 (with Allow)', () => {
    expect(contract.unmatched.unknownPath?.status).toBe('404');
    expect(contract.unmatched.wrongMethod?.headers.map((h) => h.name)).toEqual(['Allow']);
  });
});
