/**
 * Everything the run creates is deleted at the end, whichever check created
 * it (even a negative check whose invalid input was wrongly accepted), and
 * nothing else is. The registry watches every exchange: a 2xx answer of a
 * create operation registers a record, a successful DELETE of its URL (or a
 * 404 there) retires it. At the end the live ones are deleted through the
 * document's delete link, dependants first (orders before their pets, pets
 * before their categories: the order the links imply), newest first.
 *
 * Before deleting, the record is read back and must still look like the
 * run's (a free-text field carries the run tag, or the ids it was created
 * with are unchanged): a server that hands out an id it already used must
 * not make the runner delete someone else's record.
 *
 * Delete URLs are compared after URL normalisation (RFC 3986 §5.2.4), and one
 * that would not stay on the delete operation's path once normalised (an id
 * of `..` made `DELETE /things/..`, that is `DELETE /`) is never sent: the
 * record is left behind with the reason (safe-path.ts, issue 20 point 5).
 */
import { requiredDeleteBody } from './requests/delete-body.js';
import type { Operation } from '../src/contract/index.js';
import { KEPT_BY_REQUEST, type CleanupReport } from './model.js';
import { isObject, jsonBodyOf, propertiesOf, schema, type Generator, type JsonObject } from './generate.js';
import { targetUrl, type HttpClient } from './http.js';
import { identityField, recordReads, successorRead, type LinkModel, type LinkTarget, type ResourceKind } from './links.js';
import type { ExchangeSender, ExchangeTarget, RecordedExchange } from './recorded.js';
import { linkInputs } from './requests/link-inputs.js';
import type { RequestParameters } from './requests/parameters.js';
import { expandPath, templateParameters } from './requests/paths.js';
import { queryTexts } from './requests/query.js';
import type { ParamValue } from './requests/values.js';
import { pathRefusal } from './safe-path.js';

/** What the clean-up works with: the run's links, parameter values and client, and the recorder it sends through (RunContext). */
export interface CleanupHost extends ExchangeSender {
  readonly links: LinkModel;
  readonly requests: RequestParameters;
  readonly client: Pick<HttpClient, 'baseUrl' | 'redact'>;
  generatorFor(checkId: string): Generator;
}

interface ReadInput {
  readonly target: LinkTarget;
  readonly path: Record<string, ParamValue>;
  readonly query: Record<string, ParamValue>;
}

interface Entry {
  readonly seq: number;
  readonly kind: ResourceKind;
  readonly label: string;
  /** Path (relative to the base URL) the delete link targets; its identity. */
  readonly deletePath?: string;
  /** `deletePath` as the target reads it (normalised once, at register: a run deletes hundreds of records). */
  readonly deleteKey?: string;
  readonly deleteInput?: { path: Record<string, ParamValue>; query: Record<string, ParamValue> };
  readonly read?: ReadInput;
  /** Where the record is read once `read` is gone by its sunset (410): the successor the document names. */
  readonly successor?: ReadInput;
  readonly taggedFields: readonly string[];
  readonly boundFields: Readonly<Record<string, unknown>>;
  readonly url: string;
  gone: boolean;
  /**
   * The run itself wrote the record after creating it (a 2xx PUT or PATCH of its delete URL): a replace sends values
   * without the run's tag (an enum, a pattern), so the record no longer carries it, and the clean-up disowned its own
   * record (Typesense's conversation models, Mastodon's filters were left behind).
   */
  rewritten?: boolean;
}

export class CleanupRegistry {
  private readonly entries: Entry[] = [];
  /** The entries by their normalised delete path: a DELETE seen marks its records gone without a walk of every entry. */
  private readonly byDeleteKey = new Map<string, Entry[]>();
  private seq = 0;
  /** The keys the run chose for records a PUT makes at its own key (Case.ownPathKey): only those are the run's to delete. */
  private readonly ownKeys = new Set<string>();

  constructor(private readonly runTag: string) {}

  /** A key the run chose for a record a PUT makes (links.ts putCreates): a record there is the run's. */
  claimKey(key: string): void {
    this.ownKeys.add(key);
  }

  get live(): number {
    return this.entries.filter((e) => !e.gone).length;
  }

  /** Called by the recorder for every exchange. */
  observe(ctx: CleanupHost, record: RecordedExchange): void {
    const response = record.result.response;
    if (!response || record.target.kind !== 'operation') return;
    const operation = record.target.operation;
    if (record.method === 'DELETE' && ((response.status >= 200 && response.status < 300) || response.status === 404 || response.status === 410)) {
      for (const entry of this.byDeleteKey.get(normalised(ctx, record.path)) ?? []) entry.gone = true;
      return;
    }
    if ((record.method === 'PUT' || record.method === 'PATCH') && response.status >= 200 && response.status < 300) {
      for (const entry of this.byDeleteKey.get(normalised(ctx, record.path)) ?? []) entry.rewritten = true;
    }
    const putKind = ctx.links.putKinds.get(operation.operationId);
    const kind = ctx.links.kinds.get(operation.operationId) ?? putKind;
    const body = response.body.kind === 'json' ? response.body.value : response.body.kind === 'text' ? response.body.lenient : undefined;
    if (!kind || response.status < 200 || response.status >= 300) return;
    // A PUT that makes a record at its own key (links.ts putCreates) makes it whatever it answers (204, `{result: true}`).
    // Only at a key the run chose: a PUT a check sent to a made-up key may have written a record the target held before.
    if (putKind && !this.ownKeys.has(String(record.target.kind === 'operation' ? record.target.pathValues?.[putKind.keyParameter!] : undefined))) return;
    if (isObject(body)) this.register(ctx, kind, record, body, response.headers);
    else if (putKind) this.register(ctx, kind, record, {}, response.headers);
  }

  private register(ctx: CleanupHost, kind: ResourceKind, record: RecordedExchange, body: JsonObject, headers: Readonly<Record<string, string>>): void {
    const source = {
      url: record.result.url.href,
      method: record.method,
      status: record.result.response?.status,
      requestBody: record.requestJson,
      ...(record.target.kind === 'operation' && record.target.pathValues ? { requestPath: record.target.pathValues } : {}),
      responseBody: body,
      responseHeaders: headers,
    };
    const sent = isObject(record.requestJson) ? record.requestJson : {};
    // The link's parameters, and the required query parameters the record was sent with (context.ts recordQuery).
    const inputsOf = (target: LinkTarget): ReturnType<typeof linkInputs> => {
      const linked = linkInputs(target, source);
      return { path: linked.path, query: requiredQuery(ctx, target.operation, ctx.requests.recordQuery(target.operation, linked.query, sent)) };
    };
    // A URL whose template the answer could not fill (its id was not found) is never sent: `DELETE /things/{thingId}`
    // would be the run's mistake, blamed on the target (issue 21, point 3). The record is then listed as left behind.
    const deleteCandidate = kind.remove ? inputsOf(kind.remove) : undefined;
    const deleteInput = kind.remove && deleteCandidate && fills(kind.remove.operation.pathTemplate, deleteCandidate.path) ? deleteCandidate : undefined;
    const deletePath = kind.remove && deleteInput ? expandPath(kind.remove.operation.pathTemplate, deleteInput.path) : undefined;
    const readTarget = recordReads(kind).find((target) => fills(target.operation.pathTemplate, linkInputs(target, source).path));
    const successorTarget = readTarget?.operation.deprecated ? successorRead(kind, readTarget) : undefined;
    const successor = successorTarget && fills(successorTarget.operation.pathTemplate, linkInputs(successorTarget, source).path) ? successorTarget : undefined;
    const id = identityField(kind);
    const properties = Object.keys(propertiesOf(jsonBodyOf(kind.create)?.schema));
    const deleteKey = deletePath ? normalised(ctx, deletePath) : undefined;
    this.seq += 1;
    const entry: Entry = {
      seq: this.seq,
      kind,
      label: `${kind.create.operationId} → ${id && body[id] !== undefined ? `${id} ${String(body[id])}` : `record #${this.seq}`}`,
      ...(deletePath ? { deletePath } : {}),
      ...(deleteKey ? { deleteKey } : {}),
      ...(deleteInput ? { deleteInput } : {}),
      ...(readTarget ? { read: { target: readTarget, ...inputsOf(readTarget) } } : {}),
      ...(successor ? { successor: { target: successor, ...inputsOf(successor) } } : {}),
      taggedFields: Object.keys(sent).filter((key) => typeof sent[key] === 'string' && (sent[key] as string).includes(this.runTag)),
      boundFields: Object.fromEntries(properties.filter((name) => ctx.links.producers.has(name) && name in sent).map((name) => [name, sent[name]])),
      url: headers['location'] ?? deletePath ?? record.path,
      gone: false,
    };
    this.entries.push(entry);
    if (deleteKey !== undefined) {
      const same = this.byDeleteKey.get(deleteKey);
      if (same) same.push(entry);
      else this.byDeleteKey.set(deleteKey, [entry]);
    }
  }

  /**
   * --no-cleanup: nothing is read or deleted; every live record is listed as left behind, with why. For a target the
   * run's caller throws away (a container, a fresh mock): the clean-up reads each record back and deletes it, two
   * requests per record, a third of a short run's requests.
   */
  keep(ctx: CleanupHost): CleanupReport {
    const urls = new Set<string>();
    const leftBehind: { resource: string; url: string; reason: string }[] = [];
    for (const entry of this.entries) {
      if (entry.gone || urls.has(entry.url)) continue;
      urls.add(entry.url);
      leftBehind.push({ resource: entry.label, url: ctx.client.redact(entry.url), reason: KEPT_BY_REQUEST });
    }
    return { deleted: 0, leftBehind };
  }

  /** Deletes what is live; reports what could not be. Runs after failures and interrupts too. */
  async run(ctx: CleanupHost): Promise<CleanupReport> {
    const rank = rankKinds(ctx);
    const seen = new Set<string>();
    const queue = this.entries
      .filter((entry) => !entry.gone)
      .sort((a, b) => (rank.get(b.kind) ?? 0) - (rank.get(a.kind) ?? 0) || b.seq - a.seq)
      .filter((entry) => {
        // A server that reuses ids registers one URL twice; delete it once.
        // A delete URL that will not be sent is listed as left behind, each one: `/things/.` and `/things/` are one URL.
        if (!entry.deletePath || deleteRefusal(ctx, entry) !== undefined) return true;
        const path = entry.deleteKey ?? normalised(ctx, entry.deletePath);
        if (seen.has(path)) {
          entry.gone = true;
          return false;
        }
        seen.add(path);
        return true;
      });
    let deleted = 0;
    const leftBehind: { resource: string; url: string; reason: string }[] = [];
    let retry: Entry[] = [];
    for (let pass = 0; pass < 2; pass += 1) {
      const current = pass === 0 ? queue : retry;
      retry = [];
      for (const entry of current) {
        const outcome = await this.remove(ctx, entry);
        if (outcome.kind === 'deleted') deleted += 1;
        else if (outcome.kind === 'conflict' && pass === 0) retry.push(entry);
        else if (outcome.kind === 'left') leftBehind.push({ resource: entry.label, url: ctx.client.redact(entry.url), reason: outcome.reason });
        else if (outcome.kind === 'conflict') leftBehind.push({ resource: entry.label, url: ctx.client.redact(entry.url), reason: outcome.reason });
      }
    }
    return { deleted, leftBehind };
  }

  private async remove(ctx: CleanupHost, entry: Entry): Promise<{ kind: 'deleted' | 'gone' } | { kind: 'conflict' | 'left'; reason: string }> {
    if (!entry.kind.remove) return { kind: 'left', reason: `the document links no delete operation from ${entry.kind.create.operationId}'s 201 response` };
    if (!entry.deletePath || !entry.deleteInput) {
      return { kind: 'left', reason: `not deleted: ${entry.kind.remove.operation.operationId} needs ${templateParameters(entry.kind.remove.operation.pathTemplate).join(', ')}, and the answer to ${entry.kind.create.operationId} did not give it` };
    }
    const refusal = deleteRefusal(ctx, entry);
    if (refusal !== undefined) return { kind: 'left', reason: `${entry.kind.remove.operation.operationId} ${refusal}` };
    // An id the delete's own path parameter refuses (the target created it so): the document rules that request out,
    // so it is not sent, and the record is left with why (Case.follow does the same for the checks).
    const ruledOut = ctx.requests.ruledOutPath(entry.kind.remove.operation, entry.deleteInput.path);
    if (ruledOut !== undefined) return { kind: 'left', reason: `not deleted: ${ruledOut}` };
    if (entry.read) {
      let read = await this.readFirst(ctx, entry.read);
      // Gone by its sunset is not gone: read it through the successor instead (a list filtered by its id).
      if (read.kind === 'answer' && read.status === 410 && entry.read.target.operation.deprecated && entry.successor) read = await this.readFirst(ctx, entry.successor);
      if (read.kind === 'error') return { kind: 'left', reason: `not deleted: reading it first failed: ${read.message}` };
      const emptyList = Array.isArray(read.body) && read.body.length === 0;
      if (read.status === 404 || (read.status === 410 && !entry.read.target.operation.deprecated) || (read.status === 200 && emptyList)) {
        entry.gone = true;
        return { kind: 'gone' };
      }
      if (read.status === 200 && read.body !== undefined && !entry.rewritten && !this.looksOurs(entry, read.body)) {
        return { kind: 'left', reason: 'not deleted: the record at this URL no longer looks like the one this run created (did the server reuse an id?)' };
      }
    }
    const { operation } = entry.kind.remove;
    const generator = ctx.generatorFor('cleanup');
    const body = requiredDeleteBody(operation, generator);
    const headers = { ...ctx.requests.requiredHeaders(operation, generator), ...(body ? { 'content-type': body.contentType } : {}) };
    const record = await ctx.send('cleanup', { method: operation.method.toUpperCase(), path: entry.deletePath, query: queryTexts(entry.deleteInput.query), headers, ...(body ? { body: body.text } : {}) }, { kind: 'operation', operation });
    const response = record.result.response;
    if (record.result.error || !response) return { kind: 'left', reason: `${operation.operationId} failed: ${record.result.error?.message ?? 'no answer'}` };
    if (response.status >= 200 && response.status < 300) {
      entry.gone = true;
      return { kind: 'deleted' };
    }
    if (response.status === 404 || response.status === 410) {
      entry.gone = true;
      return { kind: 'gone' };
    }
    const code = response.body.kind === 'json' && isObject(response.body.value) && typeof response.body.value['code'] === 'string' ? ` ${response.body.value['code']}` : '';
    const message = response.body.kind === 'json' && isObject(response.body.value) && typeof response.body.value['message'] === 'string' ? `: ${response.body.value['message']}` : '';
    const reason = `${operation.operationId} answered ${response.status}${code}${message}`;
    return response.status === 409 ? { kind: 'conflict', reason } : { kind: 'left', reason };
  }

  private async readFirst(ctx: CleanupHost, input: ReadInput): Promise<{ kind: 'error'; message: string } | { kind: 'answer'; status: number; body: unknown }> {
    const { target, path, query } = input;
    const record = await ctx.send('cleanup', { method: 'GET', path: expandPath(target.operation.pathTemplate, path), query: queryTexts(query), headers: ctx.requests.requiredHeaders(target.operation, ctx.generatorFor('cleanup')) }, operationTarget(target));
    const response = record.result.response;
    if (record.result.error || !response) return { kind: 'error', message: record.result.error?.message ?? 'no answer' };
    const body = response.body.kind === 'json' ? response.body.value : response.body.kind === 'text' ? response.body.lenient : undefined;
    return { kind: 'answer', status: response.status, body };
  }

  private looksOurs(entry: Entry, value: unknown): boolean {
    const first = Array.isArray(value) ? value[0] : value;
    if (!isObject(first)) return false;
    // A read may wrap the record in one member (ReadMe's `{ "data": {...} }`, Xero payroll's `{ "employee": {...} }`):
    // the run's own record is then the member, and taking the wrapper for another record left every one behind.
    const records = [first, ...Object.values(first).filter(isObject)];
    if (entry.taggedFields.length > 0) return records.some((record) => Object.values(record).some((v) => typeof v === 'string' && v.includes(this.runTag)));
    return records.some((record) => Object.entries(entry.boundFields).every(([name, v]) => record[name] === v));
  }
}

/** Every required query parameter of a clean-up request given a value (a DELETE refused for a missing one leaves the record behind). */
function requiredQuery(ctx: CleanupHost, operation: Operation, query: Record<string, ParamValue>): Record<string, ParamValue> {
  const filled = ctx.requests.withRequiredQuery(operation, query, ctx.generatorFor('cleanup')) ?? {};
  return Object.fromEntries(Object.entries(filled).filter((entry): entry is [string, ParamValue] => entry[1] !== undefined));
}

/**
 * Whether `path` gives every parameter of `template` a value. An empty value the answer did give is a value: the
 * safe-path guard refuses it by name (`the {id} value "" is empty`), as it does a dot segment.
 */
function fills(template: string, path: Readonly<Record<string, unknown>>): boolean {
  return templateParameters(template).every((name) => path[name] !== undefined);
}

/** Why the entry's delete URL must not be sent (safe-path.ts), or undefined when it may. */
function deleteRefusal(ctx: CleanupHost, entry: Entry): string | undefined {
  if (!entry.deletePath || !entry.kind.remove) return undefined;
  return pathRefusal(entry.kind.remove.operation.pathTemplate, new URL(ctx.client.baseUrl).pathname, entry.deletePath, targetUrl(ctx.client.baseUrl, entry.deletePath));
}

/** A path as it goes on the wire, dot segments resolved (RFC 3986 §5.2.4), so two spellings of one URL are one URL. */
function normalised(ctx: CleanupHost, path: string): string {
  return targetUrl(ctx.client.baseUrl, path).pathname;
}

function operationTarget(target: LinkTarget): ExchangeTarget {
  return { kind: 'operation', operation: target.operation };
}

/** How deep a kind sits in the links: a record is deleted before the records its body names (an order before its pet). */
function rankKinds(ctx: CleanupHost): Map<ResourceKind, number> {
  const ranks = new Map<ResourceKind, number>();
  const visit = (kind: ResourceKind, depth: number): number => {
    if (depth > 10) return 0;
    const known = ranks.get(kind);
    if (known !== undefined) return known;
    let rank = 0;
    for (const name of Object.keys(propertiesOf(jsonBodyOf(kind.create)?.schema))) {
      const producer = ctx.links.producers.get(name);
      if (producer && producer.kind !== kind) rank = Math.max(rank, visit(producer.kind, depth + 1) + 1);
    }
    ranks.set(kind, rank);
    return rank;
  };
  for (const kind of ctx.links.kinds.values()) visit(kind, 0);
  return ranks;
}
