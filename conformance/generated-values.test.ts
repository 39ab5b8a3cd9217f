/**
 * Review 1, findings 3, 4, 9 and 13, end to end: the kit's own mock (a child process, `petstore-kit mock`) serves a
 * document whose schemas hold each class the generator met wrongly (fractional multipleOf, uniqueItems, an int32
 * range, Unicode pattern escapes, not, if/then/else), and the kit's own runner runs against it. Before, the mock
 * failed its own runner (`must be multiple of 0.1 … actual: 0.30000000000000004`), and the runner never sent a
 * create (`… breaks the document at /body/tags: must NOT have duplicate items`) yet passed with exit 0. Now every
 * answer is valid, every create is sent, and the one schema the generator cannot judge is named at start-up.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../src/contract/index.js';
import { PACKAGE_ROOT } from '../src/package-info.js';
import { sharedCompiledContract } from '../src/schema/index.js';
import { buildIfStale, killChildren, startChildMock, type ChildMock } from '../mock/test-support/child-mock.js';
import { createForeignClient, type ForeignClient } from '../mock/engine/test-support/foreign-client.js';
import type { RunReport } from './model.js';
import { runConformance } from './runner.js';

const SPEC = join(PACKAGE_ROOT, 'fixtures', 'documents', 'generation', 'values.yaml');

let mock: ChildMock;
let client: ForeignClient;
let report: RunReport;

beforeAll(async () => {
  buildIfStale();
  mock = await startChildMock(['--spec', SPEC, '--port', '0', '--seed', '3']);
  client = createForeignClient(mock.url, sharedCompiledContract(await loadContract(SPEC)));
  report = await runConformance({ baseUrl: mock.url, specPath: SPEC, seed: 5, concurrency: 2 });
}, 180_000);
afterAll(async () => {
  await client?.close();
  killChildren();
});

describe('the kit against itself on the generator classes of review 1', () => {
  it('the mock makes records of each class and every answer validates (the client checks each against the document)', async () => {
    const things = await client.send('GET', '/things');
    expect(things.status).toBe(200);
    expect((things.body as unknown[]).length).toBeGreaterThan(0);
    for (const thing of things.body as { tags: number[]; flags: boolean[] }[]) {
      expect(new Set(thing.tags).size).toBe(thing.tags.length);
      expect(new Set(thing.flags).size).toBe(2);
    }
    const shipments = await client.send('GET', '/shipments');
    expect((shipments.body as unknown[]).length).toBeGreaterThan(0);
    expect(client.checked()).toBeGreaterThanOrEqual(2);
  });

  it('names at start-up the one schema it cannot judge (a not of contains), and nothing else', () => {
    const said = mock.stderr();
    expect(said).toContain('/odds: records cannot be generated, so it starts empty: #/components/schemas/Odd/properties/marks: not generated: a value must fail its not, and the generator cannot check a value against contains there');
    expect(said).not.toMatch(/\/things:|\/shipments:/);
  });

  it('the runner finds no defect in the mock, and the mock never warned that an answer breaks its document', () => {
    const failed = report.results.filter((r) => r.verdict === 'failed');
    expect(failed.map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? r.title}`)).toEqual([]);
    expect(mock.stderr()).not.toContain('breaks the document');
  });

  it('the runner sends its creates: no case of Thing or Shipment skipped for a body it could not make valid', () => {
    const created = report.results.filter((r) => r.checkId === 'create-read-back' && (r.operationId === 'createThing' || r.operationId === 'createShipment'));
    expect(created.map((r) => [r.operationId, r.verdict])).toEqual(expect.arrayContaining([['createThing', 'passed'], ['createShipment', 'passed']]));
    const unmade = report.results.filter((r) => r.verdict === 'skipped' && /Thing|Shipment/.test(r.operationId ?? '') && /cannot be generated|breaks the document/.test(r.reason ?? ''));
    expect(unmade.map((r) => `${r.checkId} ${r.operationId ?? ''}: ${r.reason ?? ''}`)).toEqual([]);
  });

  it("the runner skips Odd's cases with the generator's reason, naming the spot", () => {
    const odd = report.results.filter((r) => r.operationId === 'createOdd' && r.verdict === 'skipped');
    expect(odd.length).toBeGreaterThan(0);
    expect(odd[0]!.reason).toContain("createOdd's body cannot be generated: #/components/schemas/Odd/properties/marks: not generated");
  });
});
