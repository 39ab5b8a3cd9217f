/**
 * The proxy in front of a server nobody here wrote: the reference Pet Store of ../shared/reference, judged by its
 * own document (ref-openapi.yaml), both used as they are. A front end's session through the proxy:
 *
 * - on the clean server, no violation at all (a proxy that blames a correct server is worse than none), and the
 *   report says which operations and statuses the traffic reached;
 * - on mutants of several kinds (a schema, a header), the planted defect, owned by the rule that owns its kind,
 *   at its JSON pointer, in the violation lines and the report.
 *
 * The other kinds of mutant run in reference.full.test.ts; Prism's proxy referees there too.
 */
import { readFileSync } from 'node:fs';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAjv } from '../../src/schema/index.js';
import type { RunReport } from '../model.js';
import { createReporter } from '../reporters/index.js';
import { frontEndSession, referencePresent, REFERENCE_MISSING, REF_SPEC, startReference, startTestProxy, type Started, type TestProxy } from './test-support/servers.js';

if (!referencePresent) console.warn(`reference.e2e.test.ts skipped: ${REFERENCE_MISSING}`);

/** The failing rules of a report, as `check on operation`. */
function failures(report: RunReport): string[] {
  return [...new Set(report.results.filter((r) => r.verdict === 'failed').map((r) => `${r.checkId} on ${r.operationId ?? '-'}`))].sort();
}

describe.skipIf(!referencePresent)('the proxy in front of the reference server', () => {
  describe('clean', () => {
    let target: Started;
    let proxy: TestProxy;
    let report: RunReport;
    beforeAll(async () => {
      target = await startReference();
      proxy = await startTestProxy({ target: target.url, specPath: REF_SPEC });
      const steps = await frontEndSession(proxy.url);
      // The session is the contract's own: every step got the answer a correct server gives.
      expect(steps.map((s) => `${s.method} ${s.path.replace(/\d{3,}|\b\d+\b/g, 'N')} ${s.status}`)).toEqual([
        'GET /categories?limit=N 200',
        'GET /pets?status=available&limit=N 200',
        'GET /pets/N 200',
        'POST /categories 201',
        'POST /pets 201',
        'GET /pets?id=N 200',
        'GET /store/inventory/N 200',
        'POST /store/orders 201',
        'PATCH /store/orders/N 200',
        'GET /store/orders?petId=N 200',
        'GET /store/inventory?limit=N 200',
        'GET /pets/N 404',
        'DELETE /categories/N 409',
      ]);
      report = proxy.report();
    }, 60_000);
    afterAll(async () => {
      await proxy?.close();
      await target?.close();
    });

    it('finds no violation in a correct server', () => {
      expect(proxy.violationLines()).toEqual([]);
      expect(proxy.violations).toBe(0);
      expect(failures(report)).toEqual([]);
      expect(report.summary.exchanges).toBe(13);
      // Every rule that had something to judge passed on it: the session was judged, not waved through.
      const judged = new Set(report.results.filter((r) => r.verdict === 'passed').map((r) => r.checkId));
      for (const rule of ['request-route', 'request-parameters', 'request-body', 'status-documented', 'content-type', 'response-schema', 'response-headers', 'error-shape', 'error-code-documented', 'deprecation-headers']) expect(judged).toContain(rule);
    });

    it('says which operations and statuses the traffic reached', () => {
      const exercised = report.coverage.operations.filter((o) => o.exercised).map((o) => o.operationId);
      expect(exercised.sort()).toEqual(['createCategory', 'createPet', 'deleteCategory', 'getInventoryItem', 'getPet', 'listCategories', 'listInventory', 'listOrders', 'listPets', 'placeOrder', 'updateOrder'].sort());
      const observed = report.coverage.statuses.filter((s) => s.observed).map((s) => `${s.operationId} ${s.status}`);
      expect(observed).toEqual(expect.arrayContaining(['getPet 200', 'getPet 404', 'deleteCategory 409', 'createPet 201']));
      expect(observed).not.toContain('deletePet 204');
    });

    it('renders the session in every format the runner has, the JSON one valid by report.schema.json', async () => {
      const validate = createAjv().compile(JSON.parse(readFileSync(new URL('../report.schema.json', import.meta.url), 'utf8')) as object);
      const served = await fetch(`${proxy.url}/__proxy/report?format=json`);
      expect(served.status).toBe(200);
      const json: unknown = await served.json();
      expect(validate(json), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
      expect(XMLValidator.validate(await (await fetch(`${proxy.url}/__proxy/report?format=junit`)).text())).toBe(true);
      expect(await (await fetch(`${proxy.url}/__proxy/report?format=html`)).text()).toContain('<html');
      expect(createReporter('console', { color: false, quiet: true }).render(report)).toContain('0 failed');
      const bad = await fetch(`${proxy.url}/__proxy/report?format=pdf`);
      expect([bad.status, ((await bad.json()) as { code: string }).code]).toEqual([400, 'PROXY_BAD_REQUEST']);
    });
  });

  describe.each([
    // A schema defect: every Pet in every answer lacks `name`.
    { mutant: 'pet-missing-name', owner: 'response-schema', operations: ['createPet', 'getPet', 'listPets'], pointer: /^\/body(\/\d+)?\/name$/, line: /^violation: GET \/pets → 200 response-schema at \/body\/0\/name: is required$/ },
    // A header defect: the list of categories says nothing of its total.
    { mutant: 'no-total-count', owner: 'response-headers', operations: ['listCategories'], pointer: /^\/header\/x-total-count$/, line: /^violation: GET \/categories → 200 response-headers at \/header\/x-total-count: header x-total-count is required by the document$/ },
  ])('mutant $mutant', ({ mutant, owner, operations, pointer, line }) => {
    let target: Started;
    let proxy: TestProxy;
    let report: RunReport;
    beforeAll(async () => {
      target = await startReference(['--mutant', mutant]);
      proxy = await startTestProxy({ target: target.url, specPath: REF_SPEC });
      await frontEndSession(proxy.url).catch(() => undefined);
      report = proxy.report();
    }, 60_000);
    afterAll(async () => {
      await proxy?.close();
      await target?.close();
    });

    it(`is found by ${owner}, at its pointer, on the operations that show it`, () => {
      const owned = report.results.filter((r) => r.verdict === 'failed' && r.checkId === owner);
      expect([...new Set(owned.map((r) => r.operationId))].sort()).toEqual(expect.arrayContaining(operations));
      expect(owned.flatMap((r) => r.findings.map((f) => f.pointer)).every((p) => pointer.test(p))).toBe(true);
      expect(proxy.violations).toBeGreaterThan(0);
    });

    it('prints one line per violated rule naming method, path, status, rule, pointer and value', () => {
      expect(proxy.violationLines().some((l) => line.test(l)), proxy.violationLines().join('\n')).toBe(true);
      // Its request rules stay clean: the session's requests were all valid.
      expect(failures(report).filter((f) => f.startsWith('request-'))).toEqual([]);
    });
  });
});
