/**
 * The body of conformance/published-prism.test.ts (the fast tier's slice) and published-prism.full.test.ts (the rest):
 * see the former for what it proves.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { PUBLISHED_DOCUMENTS, type PublishedDocument } from '../../fixtures/published/index.js';
import { loadContract, type Operation } from '../../src/contract/index.js';
import { CHECKS } from '../checks/index.js';
import type { CheckResult, Exchange, RunReport } from '../model.js';
import { runConformance } from '../runner.js';
import { writeDocumentSubset } from './document-subset.js';
import { startPrism, stopPrism, type RunningPrism } from './prism.js';

/** The documents run, by name in fixtures/published; `only`: how many of the first operations to run. */
export interface PrismRun {
  readonly name: string;
  readonly only?: number;
}

export const RUNS: readonly PrismRun[] = [
  // OpenAPI 3.0
  { name: 'twilio/chat-v3' },
  { name: 'twilio/oauth-v1' },
  { name: 'twilio/lookups-v2' },
  { name: 'twilio/messaging-v1' },
  { name: 'twilio/api-v2010', only: 12 },
  { name: 'xero/app-store' },
  { name: 'xero/bankfeeds' },
  { name: 'svix/server' },
  // OpenAPI 3.1
  { name: 'adyen/balance-control-v2' },
  { name: 'adyen/bin-lookup-v54' },
  { name: 'adyen/disputes-v30' },
  { name: 'adyen/foreign-exchange-v1' },
  { name: 'adyen/session-authentication-v1' },
  { name: 'adyen/recurring-v68' },
  { name: 'adyen/transfers-v4' },
  { name: 'adyen/management-v3', only: 12 },
  { name: 'discourse/api', only: 30 },
];

/** Families of checks that compare what one request did with what a later one reads. */
const STATEFUL_FAMILIES = new Set(['stateful', 'workflow']);
const STATEFUL_CHECKS = new Set([...CHECKS.filter((check) => STATEFUL_FAMILIES.has(check.family)).map((check) => check.id), 'unknown-id-404', 'paging-walk', 'total-count']);
const ACCEPTANCE_CHECKS = new Set(CHECKS.filter((check) => check.family === 'acceptance').map((check) => check.id));
const NEGATIVE_CHECKS = new Set(CHECKS.filter((check) => check.family === 'negative').map((check) => check.id));

interface Judged {
  readonly result: CheckResult;
  /** The exchange that broke the rule. */
  readonly exchange: Exchange | undefined;
  /** Every example and default value written in the document, as canonical JSON. */
  readonly examples: ReadonlySet<string>;
}

type Fault = 'Prism' | 'the document';
interface FindingClass {
  readonly fault: Fault;
  readonly why: string;
  readonly is: (judged: Judged) => boolean;
}

const body = (exchange: Exchange | undefined): string => exchange?.response?.bodyExcerpt ?? '';
const PRISM_OWN_ERROR = /^\s*\{\s*"type"\s*:\s*"https:\/\/stoplight\.io\/prism\/errors#|^\s*\{\s*"error"\s*:\s*\{\s*"code"\s*:\s*"invalid_json"/;

/** Prism's `sl-violations` header: what its own validator found, request and response. */
function prismViolations(exchange: Exchange | undefined): { location: string[]; message: string }[] {
  const header = exchange?.response?.headers['sl-violations'];
  if (header === undefined) return [];
  try {
    const parsed = JSON.parse(header) as unknown;
    return Array.isArray(parsed) ? (parsed as { location: string[]; message: string }[]) : [];
  } catch {
    return [];
  }
}

const CLASSES: Readonly<Record<string, FindingClass>> = {
  'prism-is-stateless': {
    fault: 'Prism',
    why: "Prism's mock keeps no state (its documentation: it is not a stateful server): every read answers the document's example or a generated value, so what a create, replace, patch or delete did is not what the next read shows, an absent id is found, and a list does not hold what was created",
    is: ({ result }) => STATEFUL_CHECKS.has(result.checkId),
  },
  'prism-405-without-allow': {
    fault: 'Prism',
    why: 'Prism answers a method the path lacks with 405 and no Allow header, which RFC 9110 §15.5.6 requires',
    is: ({ result, exchange }) => result.checkId === 'method-not-allowed-405' && exchange?.response?.status === 405 && exchange.response.headers['allow'] === undefined && body(exchange).includes('NO_METHOD_MATCHED_ERROR'),
  },
  'prism-own-error-answer': {
    fault: 'Prism',
    why: "Prism refuses a request with its own error (problem+json with a stoplight.io type, or {error: {code: invalid_json}} for unparsable JSON) and its own choice of status, not with the document's error schema and statuses",
    // Not for a refused valid request (the acceptance family): there Prism's validation message must be read, it could be the runner's input.
    is: ({ result, exchange }) => !ACCEPTANCE_CHECKS.has(result.checkId) && PRISM_OWN_ERROR.test(body(exchange)),
  },
  'prism-flags-its-own-answer': {
    fault: 'the document',
    why: "Prism's own validator reports, in its sl-violations header, that the answer it served breaks the document: the answer is the document's example (or built from the examples of its properties), which breaks the document's own schema",
    is: ({ result, exchange }) => ['response-schema', 'error-shape', 'response-headers', 'content-type'].includes(result.checkId) && prismViolations(exchange).some((v) => v.location[0] === 'response'),
  },
  'document-example-breaks-schema': {
    fault: 'the document',
    why: "the answer, or the value in it that breaks the schema, is one of the document's own examples (or defaults), which Prism serves as written (Adyen's balance overview example is a JSON text in a string where the schema wants an object; its error examples leave out fields the error schema requires)",
    is: ({ result, exchange, examples }) =>
      ['response-schema', 'error-shape', 'response-headers'].includes(result.checkId) &&
      (result.findings.some((finding) => finding.actual !== undefined && typeof finding.actual !== 'object' && examples.has(JSON.stringify(finding.actual))) || examples.has(canonicalBody(exchange))),
  },
  'prism-status-field': {
    fault: 'Prism',
    why: "an error schema's `status` is the HTTP status (the document says so); Prism fills it with the example's or a generated integer (0, -2147483648), whatever status it answers",
    is: ({ result }) => result.checkId === 'error-shape' && result.findings.some((f) => f.pointer === '/body/status' && f.keyword === 'const'),
  },
  'prism-null-header': {
    fault: 'Prism',
    why: 'Prism writes "null" for a declared response header that has no example (a boolean Access-Control-Allow-Credentials): no header schema allows it',
    is: ({ result }) => result.checkId === 'response-headers' && result.findings.some((f) => f.actual === 'null'),
  },
  'prism-lets-invalid-through': {
    fault: 'Prism',
    why: 'Prism accepts some invalid requests: a body whose schema is referenced from several operations is not validated (stoplightio/prism#2574), a body without Content-Type is taken, a query value is not checked against every constraint',
    is: ({ result, exchange }) =>
      NEGATIVE_CHECKS.has(result.checkId) && /^accepted: answered 2\d\d/.test(result.reason ?? '') && exchange?.response !== undefined && exchange.response.status < 300 && prismViolations(exchange).every((v) => v.location[0] !== 'request'),
  },
  'prism-error-example-for-a-valid-request': {
    fault: 'Prism',
    why: "Prism's log says the request passed its validation, then it answers with one of the document's error examples (Svix's 401 on a DELETE whose success is a 204 without content): the request was valid, the error is Prism's choice of answer",
    is: ({ result, exchange }) =>
      ACCEPTANCE_CHECKS.has(result.checkId) &&
      exchange?.response !== undefined &&
      exchange.response.status >= 400 &&
      exchange.response.status < 500 &&
      exchange.response.headers['sl-violations'] === undefined &&
      !PRISM_OWN_ERROR.test(body(exchange)),
  },
  'prism-form-arrays': {
    fault: 'Prism',
    why: 'Prism reads a form-urlencoded array of one item (`Filters=a`, the form style with explode of OpenAPI 3.0.3 §4.7.12.4) as a string and refuses it: "must be array"',
    is: ({ exchange }) => /x-www-form-urlencoded/.test(exchange?.request.headers['content-type'] ?? '') && exchange?.response?.status === 422 && /must be array/.test(body(exchange)),
  },
};

/** Every `example`, `examples` entry (value or item) and `default` in the raw document, as canonical JSON. */
function documentExamples(file: string): Set<string> {
  const raw = parseYaml(readFileSync(file, 'utf8'), { maxAliasCount: -1 }) as unknown;
  const out = new Set<string>();
  const add = (value: unknown): void => {
    if (value !== undefined) out.add(JSON.stringify(value));
  };
  const walk = (node: unknown, depth: number): void => {
    if (depth > 200 || typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) return node.forEach((item) => walk(item, depth + 1));
    for (const [key, value] of Object.entries(node)) {
      if (key === 'example' || key === 'default') {
        add(value);
        collectLeaves(value, add);
      } else if (key === 'examples' && Array.isArray(value)) {
        // A schema's `examples` (JSON Schema 2020-12, OpenAPI 3.1).
        value.forEach((item) => (add(item), collectLeaves(item, add)));
      } else if (key === 'examples' && typeof value === 'object' && value !== null) {
        // A media type's map of Example Objects (OpenAPI 3.0.3 §4.7.19): each value, whole and by its leaves.
        for (const example of Object.values(value)) {
          const inner = typeof example === 'object' && example !== null ? (example as Record<string, unknown>)['value'] : undefined;
          if (inner !== undefined) (add(inner), collectLeaves(inner, add));
        }
      }
      walk(value, depth + 1);
    }
  };
  walk(raw, 0);
  return out;
}

/** The answer's body as canonical JSON, when it came whole; '' otherwise. */
function canonicalBody(exchange: Exchange | undefined): string {
  const response = exchange?.response;
  if (!response || response.truncated || Buffer.byteLength(response.bodyExcerpt) < response.bodyBytes) return '';
  try {
    return JSON.stringify(JSON.parse(response.bodyExcerpt));
  } catch {
    return '';
  }
}

function collectLeaves(value: unknown, add: (leaf: unknown) => void, depth = 0): void {
  if (depth > 100) return;
  if (typeof value !== 'object' || value === null) return add(value);
  for (const item of Array.isArray(value) ? value : Object.values(value)) collectLeaves(item, add, depth + 1);
}

/** Dummy credentials of the kinds the document's schemes name: Prism checks their presence and form only. */
function credentialsFor(file: string): Record<string, string> {
  const raw = parseYaml(readFileSync(file, 'utf8'), { maxAliasCount: -1 }) as { components?: { securitySchemes?: Record<string, { type?: string; scheme?: string; in?: string; name?: string }> } };
  const headers: Record<string, string> = {};
  for (const scheme of Object.values(raw.components?.securitySchemes ?? {})) {
    if (scheme.type === 'http' && /^basic$/i.test(scheme.scheme ?? '')) headers['Authorization'] ??= 'Basic dXNlcjpwYXNzd29yZA==';
    else if (scheme.type === 'http' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') headers['Authorization'] ??= 'Bearer published-prism-test';
    else if (scheme.type === 'apiKey' && scheme.in === 'header' && scheme.name) headers[scheme.name] ??= 'published-prism-test';
  }
  return headers;
}

export function documentNamed(name: string): PublishedDocument {
  const document = PUBLISHED_DOCUMENTS.find((d) => d.name === name);
  if (!document) throw new Error(`${name} is not in fixtures/published`);
  return document;
}

interface Outcome {
  readonly document: PublishedDocument;
  readonly report: RunReport;
  /** Class → how many failed results it explains. */
  readonly classified: Map<string, number>;
  /** Class → the title of the first result it explained, for the reader. */
  readonly samples: Map<string, string>;
  readonly seconds: number;
  /** Failed results no class explains, as one line each. */
  readonly unexplained: string[];
}

function classify(document: PublishedDocument, report: RunReport, seconds: number): Outcome {
  const examples = documentExamples(document.file);
  const classified = new Map<string, number>();
  const samples = new Map<string, string>();
  const unexplained: string[] = [];
  const failed = report.results.filter((r) => r.verdict === 'failed');
  const classOf = (result: CheckResult): string | undefined => {
    const exchange = result.evidence[result.failedAt ?? result.evidence.length - 1];
    return Object.entries(CLASSES).find(([, c]) => c.is({ result, exchange, examples }))?.[0];
  };
  for (const result of failed) {
    // A consequence is filed under the defect that caused it (runner.ts): it is explained when its cause is.
    const cause = result.consequenceOf ? failed.find((r) => r.checkId === result.consequenceOf!.checkId && r.operationId === result.consequenceOf!.operationId && !r.consequenceOf) : undefined;
    const name = classOf(result) ?? (cause && classOf(cause) ? 'consequence-of-a-classified-finding' : undefined);
    if (name) {
      classified.set(name, (classified.get(name) ?? 0) + 1);
      if (!samples.has(name)) samples.set(name, `${result.checkId} ${result.title}: ${result.reason ?? ''}`.slice(0, 200));
    }
    else {
      const exchange = result.evidence[result.failedAt ?? result.evidence.length - 1];
      unexplained.push(`${result.checkId} ${result.operationId ?? ''}: ${result.reason ?? ''} | ${exchange ? `${exchange.request.method} ${exchange.request.url} → ${exchange.response?.status ?? exchange.error?.code}: ${body(exchange).slice(0, 160)}` : 'no exchange'}`);
    }
  }
  return { document, report, classified, unexplained, samples, seconds };
}

/** Prism's mock of each document of `runs`, the runner against it, and every finding put in a class that says whose fault it is. */
export function describePublishedPrism(runs: readonly PrismRun[]): void {
  describe('the runner against Prism\'s mock of published documents (issue 21, point 4)', () => {
    const outcomes: Outcome[] = [];
    let prism: RunningPrism | undefined;
    const work = mkdtempSync(join(tmpdir(), 'published-prism-'));

    beforeAll(async () => {
      for (const run of runs) {
        const document = documentNamed(run.name);
        const started = performance.now();
        // A run of some operations gets a document cut to them (and what they reach), for Prism as for the runner:
        // Prism would otherwise read every operation of the document before answering one (document-subset.ts).
        const first = run.only !== undefined ? await firstOperations(document.file, run.only) : undefined;
        const file = first ? writeDocumentSubset(document.file, work, (method, path) => first.some((op) => op.method === method && op.pathTemplate === path)) : document.file;
        prism = await startPrism(file);
        try {
          const report = await runConformance({
            baseUrl: prism.url,
            specPath: file,
            seed: 21,
            concurrency: 8,
            headers: credentialsFor(document.file),
            ...(first ? { only: first.map((op) => op.operationId) } : {}),
          });
          outcomes.push(classify(document, report, Math.round((performance.now() - started) / 1000)));
        } finally {
          await stopPrism(prism);
          prism = undefined;
        }
      }
    }, 1_200_000);
    afterAll(async () => {
      await stopPrism(prism);
      rmSync(work, { recursive: true, force: true });
    });

    it('exercises every document: requests sent, checks passed, no check crashed', () => {
      expect(outcomes.map((o) => o.document.name)).toEqual(runs.map((run) => run.name));
      for (const { document, report } of outcomes) {
        expect(report.summary.exchanges, document.name).toBeGreaterThan(0);
        expect(report.summary.passed, document.name).toBeGreaterThan(0);
        expect(report.results.filter((r) => /internal error in the check/.test(r.reason ?? '')).map((r) => r.reason), document.name).toEqual([]);
      }
    });

    it('every finding is one of the classes read and explained above: Prism\'s or the document\'s fault', (context) => {
      const unexplained = outcomes.flatMap((o) => o.unexplained.map((line) => `${o.document.name}: ${line}`));
      const tally = new Map<string, number>();
      for (const o of outcomes) for (const [name, n] of o.classified) tally.set(name, (tally.get(name) ?? 0) + n);
      context.annotate(`findings by class: ${[...tally].map(([name, n]) => `${name} ${n}`).join(', ')}`);
      for (const name of tally.keys()) context.annotate(`${name}, e.g. ${outcomes.map((o) => o.samples.get(name) && `${o.document.name}: ${o.samples.get(name)}`).find(Boolean)}`);
      context.annotate(`seconds per document (Prism's start and the run): ${outcomes.map((o) => `${o.document.name} ${o.seconds}`).join(', ')}`);
      expect(unexplained).toEqual([]);
    });
  });
}

/** A document's first `count` operations, in document order. */
async function firstOperations(file: string, count: number): Promise<Operation[]> {
  return (await loadContract(file)).operations.slice(0, count);
}

/** The fast tier's share of the table: its smallest OpenAPI 3.0 document and its smallest 3.1 document. */
export function fastPrismSlice(): PrismRun[] {
  const smallest = new Map<string, PrismRun>();
  for (const run of [...RUNS].sort((a, b) => documentNamed(a.name).bytes - documentNamed(b.name).bytes)) {
    const version = documentNamed(run.name).version;
    if (!smallest.has(version)) smallest.set(version, run);
  }
  return [...smallest.values()];
}
