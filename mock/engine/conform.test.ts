/**
 * Fitting a value to a schema with branches (conform.ts fitTo): the branch that keeps most of what the value holds.
 * ReadMe's API v2 answers a branch as `{ base: "v1", ... }` or `{ base: { ...the version... }, ... }` (anyOf): a record
 * sent with `base: "v1"` was fitted to the first branch that validated after repair, its `base` replaced by an
 * invented version, and each answer of the record, fitted again, disagreed with the last.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/index.js';
import { compileContract } from '../../src/schema/index.js';
import { PACKAGE_ROOT } from '../../src/package-info.js';
import { fitTo } from './conform.js';
import { ValueGenerator } from './generate.js';
import type { Schema } from './schemas.js';

const VERSION: Schema = { type: 'object', required: ['name', 'state'], additionalProperties: false, properties: { name: { type: 'string' }, state: { type: 'string', enum: ['current', 'deprecated'] } } };
const BRANCH: Schema = {
  anyOf: [
    { type: 'object', required: ['base', 'name', 'uri'], additionalProperties: false, properties: { base: VERSION, name: { type: 'string' }, uri: { type: 'string' } } },
    { type: 'object', required: ['base', 'name', 'uri'], additionalProperties: false, properties: { base: { type: 'string' }, name: { type: 'string' }, uri: { type: 'string' } } },
  ],
};

describe('fitTo on a schema with branches', async () => {
  const contract = await loadContract('openapi.yaml');
  const compiled = compileContract(contract);
  const problems = (schema: Schema, value: unknown) => compiled.validate(schema, value, 'response');

  it('keeps what the value holds, in the branch that allows it, and fills the rest', () => {
    const fitted = fitTo({ base: 'v1', name: 'v2' }, BRANCH, new ValueGenerator(3), 'response', problems);
    expect(problems(BRANCH, fitted)).toEqual([]);
    expect(fitted).toMatchObject({ base: 'v1', name: 'v2' });
  });

  it('keeps the branch a pinned member names (enum, const), though another keeps more members', () => {
    // A card token answers with the last four digits it is given, never the number sent; the other branch (no
    // instrument declared, so any is taken) would keep more members as they were, but only by changing `method`.
    const card: Schema = {
      type: 'object',
      required: ['method', 'instrument'],
      properties: {
        method: { type: 'string', enum: ['card'] },
        instrument: { type: 'object', required: ['last4'], properties: { last4: { type: 'string', readOnly: true, pattern: '^[0-9]{4}$' }, pan: { type: 'string', writeOnly: true } } },
        note: { type: 'string', maxLength: 3 },
        billing: { type: 'object' },
      },
    };
    const other: Schema = { type: 'object', required: ['method'], properties: { method: { type: 'string', enum: ['cash', 'check'] }, billing: { type: 'object' } } };
    const cases: [string, Schema][] = [
      ['enum', { oneOf: [other, card] }],
      ['const', { oneOf: [other, { ...card, properties: { ...card.properties, method: { const: 'card' } as Schema } }] }],
    ];
    for (const [label, pinned] of cases) {
      const fitted = fitTo({ method: 'card', instrument: { pan: '4111111111111111' }, note: 'a note too long', billing: {} }, pinned, new ValueGenerator(3), 'response', problems);
      expect(problems(pinned, fitted), label).toEqual([]);
      expect(fitted, label).toMatchObject({ method: 'card', billing: {} });
    }
  });

  it('keeps a member that only the other branch allows, in that branch', () => {
    const fitted = fitTo({ base: { name: 'v1', state: 'current' }, name: 'v2' }, BRANCH, new ValueGenerator(3), 'response', problems);
    expect(fitted).toMatchObject({ base: { name: 'v1', state: 'current' }, name: 'v2' });
  });

  it('fits a member with branches to the branch its pinned members name, not to any branch drawn afresh', () => {
    // Box's hub collaboration: `accessible_by` is a user or a group, each needing an id; a user sent without one.
    const reference = (kind: string): Schema => ({ type: 'object', required: ['type', 'id'], properties: { type: { type: 'string', enum: [kind] }, id: { type: 'string' }, name: { type: 'string' } } });
    const collaboration: Schema = { type: 'object', required: ['role', 'accessible_by'], properties: { role: { type: 'string' }, accessible_by: { oneOf: [reference('user'), reference('group')] } } };
    for (const seed of [1, 2, 3, 4, 5]) {
      const fitted = fitTo({ role: 'editor', accessible_by: { type: 'user' } }, collaboration, new ValueGenerator(seed), 'response', problems);
      expect(problems(collaboration, fitted)).toEqual([]);
      expect(fitted).toMatchObject({ role: 'editor', accessible_by: { type: 'user' } });
    }
  });

  it('ends on a member whose branches hold themselves', () => {
    const node: Schema = { type: 'object', properties: {} };
    const branches = { oneOf: [node, { type: 'object', required: ['leaf'], properties: { leaf: { type: 'integer' } } }] } as Schema;
    (node.properties as Record<string, Schema>)['child'] = branches;
    const holder: Schema = { type: 'object', required: ['tree'], properties: { tree: branches } };
    const fitted = fitTo({ tree: { child: { child: { leaf: 'x' } } } }, holder, new ValueGenerator(1), 'response', problems);
    expect(fitted).toBeDefined();
  });

  it('puts back each member a fit changed that the whole stays valid with: the id a record is kept under, what the client sent (Clerk\'s SAML connections)', async () => {
    // Clerk's SAMLConnection as written: bare branches at the root (`anyOf: [{required: [domain]}, {required:
    // [domains]}]`) and members the record lacks: the fit drew the whole value afresh, a new id and name with it.
    const clerk = compileContract(await loadContract(join(PACKAGE_ROOT, 'fixtures', 'documents', 'root-branches.yaml'), { strict: false }));
    const lenient = (schema: Schema, value: unknown) => clerk.validate(schema, value, 'response');
    const connection = clerk.contract.document.components!.schemas!['SAMLConnection'] as Schema;
    for (let seed = 1; seed <= 20; seed += 1) {
      const fitted = fitTo({ id: '4', name: `connection ${seed}`, domain: 'a.example' }, connection, new ValueGenerator(seed), 'response', lenient);
      expect(lenient(connection, fitted)).toEqual([]);
      expect(fitted).toMatchObject({ id: '4', name: `connection ${seed}`, domain: 'a.example' });
      // The same record in an envelope (Lago's `{ payment: {...} }`): its members are put back inside it.
      const enveloped = clerk.contract.document.components!.schemas!['EnvelopedConnection'] as Schema;
      const wrapped = fitTo({ saml_connection: { id: '4', name: `connection ${seed}`, domain: 'a.example' } }, enveloped, new ValueGenerator(seed), 'response', lenient);
      expect(lenient(enveloped, wrapped)).toEqual([]);
      expect(wrapped).toMatchObject({ saml_connection: { id: '4', name: `connection ${seed}`, domain: 'a.example' } });
    }
  });

  it('puts back a member the client sent that a fit drawn afresh left out (Clerk\'s deprecated `domain`, sent beside `domains`)', async () => {
    // The runner's "every optional field" create: a value drawn afresh leaves optional (and deprecated) members out, and
    // only members the fit kept were put back, so one answer in seven lost the `domain` the client had sent.
    const clerk = compileContract(await loadContract(join(PACKAGE_ROOT, 'fixtures', 'documents', 'root-branches.yaml'), { strict: false }));
    const lenient = (schema: Schema, value: unknown) => clerk.validate(schema, value, 'response');
    const connection = clerk.contract.document.components!.schemas!['SAMLConnection'] as Schema;
    const text = '  Line one\nline\ttwo pkpzs3h7381-9.5  ';
    const sent = { id: '166', name: text, domain: text, provider: 'saml_custom', organization_id: '55', domains: ['meander'], idp_entity_id: text, idp_sso_url: text, idp_certificate: text, idp_metadata_url: text, idp_metadata: text, attribute_mapping: {}, force_authn: true, login_hint: { mode: 'email_address' } };
    for (let seed = 1; seed <= 60; seed += 1) {
      const fitted = fitTo(sent, connection, new ValueGenerator(seed), 'response', lenient);
      expect(lenient(connection, fitted)).toEqual([]);
      expect(fitted, `seed ${seed}`).toMatchObject({ id: '166', name: text, domain: text, domains: ['meander'] });
    }
  });
});
