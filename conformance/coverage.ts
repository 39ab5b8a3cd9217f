/**
 * What the run exercised, counted as it goes: which operations answered,
 * which documented (operation, status) pairs were observed, and which
 * PetStatus values were sent and seen. Counted per exchange and then let go,
 * so the runner keeps no response body for the whole run (issue 12, finding 2:
 * a hostile target's 1 MiB answers must not pile up).
 */
import { responseFor, type Contract } from '../src/contract/index.js';
import type { RecordedExchange } from './recorded.js';
import { isObject } from './generate.js';
import type { Coverage } from './model.js';

/** collectStatuses looks this deep into a body: a record and its nested parts, not a hostile target's nesting. */
const MAX_DEPTH = 4;
/** …and at this many array items: a page of this API is far smaller. */
const MAX_ITEMS = 1000;

export class CoverageRecorder {
  private readonly exercised = new Set<string>();
  private readonly observed = new Set<string>();
  private readonly sent = new Set<string>();
  private readonly seen = new Set<string>();
  private readonly enumValues: readonly string[];

  constructor(private readonly contract: Contract) {
    this.enumValues = petStatusValues(contract);
  }

  observe(record: RecordedExchange): void {
    // The probes only ask whether the target is there: they exercise nothing a check judges (--min-coverage).
    if (record.target.kind !== 'operation' || record.checkId === 'probe') return;
    const operation = record.target.operation;
    collectStatuses(record.requestJson, this.enumValues, this.sent, 0);
    for (const value of record.query['status'] ?? []) if (this.enumValues.includes(value)) this.sent.add(value);
    const response = record.result.response;
    if (!response) return;
    this.exercised.add(operation.operationId);
    const spec = responseFor(operation, response.status);
    if (spec) this.observed.add(`${operation.operationId} ${spec.status}`);
    if (response.status < 400 && response.body.kind === 'json') collectStatuses(response.body.value, this.enumValues, this.seen, 0);
  }

  report(): Coverage {
    const { contract } = this;
    return {
      operations: contract.operations.map((op) => ({ operationId: op.operationId, exercised: this.exercised.has(op.operationId) })),
      statuses: contract.operations.flatMap((op) => [...op.responses.keys()].map((status) => ({ operationId: op.operationId, status, observed: this.observed.has(`${op.operationId} ${status}`) }))),
      petStatuses: this.enumValues.map((value) => ({ value, sent: this.sent.has(value), observed: this.seen.has(value) })),
    };
  }
}

/** The PetStatus enum, read from the document (empty for a document without one). */
function petStatusValues(contract: Contract): string[] {
  const schema = contract.document.components?.schemas?.['PetStatus'] as { enum?: unknown[] } | undefined;
  return (schema?.enum ?? []).filter((v): v is string => typeof v === 'string');
}

/** Every `status` string of a JSON value that is a PetStatus value (bounded in depth and breadth). */
function collectStatuses(value: unknown, values: readonly string[], into: Set<string>, depth: number): void {
  if (depth > MAX_DEPTH || values.length === 0) return;
  if (Array.isArray(value)) {
    for (const item of value.slice(0, MAX_ITEMS)) collectStatuses(item, values, into, depth + 1);
  } else if (isObject(value)) {
    const status = value['status'];
    if (typeof status === 'string' && values.includes(status)) into.add(status);
    for (const child of Object.values(value)) if (typeof child === 'object' && child !== null) collectStatuses(child, values, into, depth + 1);
  }
}
