/**
 * What the generic engine inferred, said plainly (issue 22, point 6): as JSON for `GET /__mock/resources`, and as
 * lines printed at start-up, each with how to correct it (README "Any document").
 */
import type { Contract } from '../../src/contract/index.js';
import type { Unanswerable } from './answer-guard.js';
import type { ResourceMap } from './infer.js';
import type { ProofState } from './proof-sweep.js';

export const CORRECTIONS =
  'correct it in the document or an overlay (--mock-overlay FILE): x-mock-id: FIELD on a path item or schema, x-mock-collection: false on a path item, x-mock-stateless: true on an operation';

export function describeResources(contract: Contract, map: ResourceMap, proofs?: ProofState, rules: readonly object[] = []) {
  return {
    resources: map.resources.map((r) => ({
      collection: r.collectionPath,
      item: r.itemPath,
      ...(r.itemless ? { itemless: true } : {}),
      name: r.name,
      id: { parameter: r.idParam, ...(r.idField ? { field: r.idField } : {}), kind: r.idKind },
      ...(r.batchKey ? { records: `.${r.batchKey}[]` } : {}),
      ...(r.itemEnvelope ? { record: `.${r.itemEnvelope}` } : {}),
      ...(r.scopeParams.length > 0 ? { scopedBy: r.scopeParams } : {}),
      operations: r.roles,
      upsert: r.upsert,
      ...(r.list ? { list: { shape: r.list.shape.kind === 'array' ? 'array' : `envelope.${r.list.shape.itemsKey}`, paging: r.list.paging, filters: Object.fromEntries(r.list.filters) } } : {}),
    })),
    stateless: contract.operations.filter((o) => !map.roles.has(o.operationId)).map((o) => o.operationId),
    // How far the proof of every documented answer has gone, and those no valid answer can be made for (answer-guard.ts).
    ...(proofs ? { answers: proofs } : {}),
    // The rules stated beside the document (docs/rules.md), each with where it is stated.
    rules,
    corrections: CORRECTIONS,
  };
}

/** The map as log lines: one per resource, then the count of stateless operations. */
export function resourceLines(contract: Contract, map: ResourceMap): string[] {
  const lines = map.resources.map((r) => {
    const roles = Object.entries(r.roles).map(([role]) => role).join(' ');
    const list = r.list ? `, list ${r.list.shape.kind === 'array' ? 'array' : `in .${r.list.shape.itemsKey}`}${Object.keys(r.list.paging).length ? ` paged by ${Object.values(r.list.paging).join('/')}` : ''}` : '';
    return `  ${r.itemless ? r.collectionPath : r.itemPath}: ${roles}; ${r.why}${r.upsert ? ', PUT creates' : ''}${list}`;
  });
  const stateless = contract.operations.length - map.roles.size;
  return [
    `${contract.title} ${contract.version} is not the Pet Store: ${map.resources.length} resource${map.resources.length === 1 ? '' : 's'} inferred, ${stateless} operation${stateless === 1 ? '' : 's'} answered from examples or schemas`,
    ...lines,
    `  (${CORRECTIONS}; GET /__mock/resources has the details)`,
  ];
}

/**
 * The documented answers the engine cannot make, one line each with the spot of the document and what is answered
 * instead; nothing when every answer can be made.
 */
export function unanswerableLines(unanswerable: readonly Unanswerable[]): string[] {
  if (unanswerable.length === 0) return [];
  return [
    `${unanswerable.length} documented answer${unanswerable.length === 1 ? '' : 's'} cannot be made valid, so ${unanswerable.length === 1 ? 'it is' : 'they are'} never sent:`,
    ...unanswerable.map((u) => `  ${u.operationId} ${u.status}: ${u.where}: ${u.why}; answers ${u.answeredWith} instead`),
  ];
}
