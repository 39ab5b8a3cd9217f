/**
 * The secrets a session meets, so none reaches a violation line, a report, a HAR file or a recorded fixture:
 * the `--header` values the proxy adds, and the credentials the traffic itself carries: the headers redact.ts treats
 * as credentials (Authorization, cookies, API keys), the `--header` names, and the headers, cookies and query
 * parameters the document's security schemes name (an apiKey, OpenAPI 3.0.3 §4.7.33). Values are learnt as
 * exchanges pass, bounded in number; redact.ts does the scrubbing, in every form a target may echo a value in.
 */
import type { Contract } from '../../src/contract/index.js';
import { createRedactor, type RedactOptions, type Redactor } from '../reporters/index.js';

/** Distinct secret values kept at most: past it the oldest are forgotten (header names stay redacted whatever their value). */
const MAX_SECRETS = 256;

type Headers = Readonly<Record<string, string | readonly string[] | undefined>>;

export class SecretBook {
  private readonly names: readonly string[];
  private readonly given: readonly string[];
  private readonly learnt = new Set<string>();
  private redactorMemo: Redactor | undefined;
  private readonly byName: Redactor;

  private readonly queryNames: ReadonlySet<string>;

  constructor(contract: Contract, headerNames: readonly string[], headerValues: readonly string[]) {
    const schemes = credentialParameters(contract);
    this.names = [...headerNames, ...schemes.headers].map((name) => name.toLowerCase());
    this.queryNames = new Set(schemes.query);
    this.given = headerValues;
    this.byName = createRedactor({ headerNames: this.names });
  }

  /** Whether the document names a query parameter that carries credentials: only then is a query worth reading. */
  get watchesQuery(): boolean {
    return this.queryNames.size > 0;
  }

  /** Notes the values of the query parameters the document's security schemes name (`?api_key=…`). */
  learnQuery(query: Readonly<Record<string, string | readonly string[]>>): void {
    if (this.queryNames.size === 0) return;
    for (const name of this.queryNames) {
      const value = query[name];
      if (value === undefined) continue;
      for (const item of typeof value === 'string' ? [value] : value) this.add(item);
    }
  }

  /** Notes the credential values among these headers (a request's or an answer's). */
  learn(headers: Headers): void {
    for (const name in headers) {
      if (!this.byName.isSensitive(name)) continue;
      const value = headers[name];
      if (value === undefined) continue;
      for (const item of typeof value === 'string' ? [value] : value) for (const secret of secretsIn(name, item)) this.add(secret);
    }
  }

  /** What the reporters take to redact (reporters/index.ts ReporterOptions.redact). */
  get options(): RedactOptions {
    return { headerNames: this.names, secrets: [...this.given, ...this.learnt] };
  }

  get redactor(): Redactor {
    return (this.redactorMemo ??= createRedactor(this.options));
  }

  private add(secret: string): void {
    if (secret.length < 4 || this.learnt.has(secret)) return;
    if (this.learnt.size >= MAX_SECRETS) this.learnt.delete(this.learnt.values().next().value!);
    this.learnt.add(secret);
    this.redactorMemo = undefined;
  }
}

/** A header value's secrets: the whole value, and each cookie's value (RFC 6265 §4.1.1, §4.2.1: `name=value` pairs). */
function secretsIn(name: string, value: string): string[] {
  if (name === 'cookie') return [value, ...value.split(';').map((pair) => pair.slice(pair.indexOf('=') + 1).trim())];
  if (name === 'set-cookie') {
    const first = value.split(';')[0] ?? '';
    return [first.slice(first.indexOf('=') + 1).trim()];
  }
  return [value];
}

/** The header and query parameter names the document's apiKey security schemes carry credentials in. */
function credentialParameters(contract: Contract): { headers: string[]; query: string[] } {
  const schemes = (contract.document.components as { securitySchemes?: Record<string, unknown> } | undefined)?.securitySchemes ?? {};
  const headers: string[] = [];
  const query: string[] = [];
  for (const scheme of Object.values(schemes)) {
    if (typeof scheme !== 'object' || scheme === null) continue;
    const { type, in: where, name } = scheme as { type?: unknown; in?: unknown; name?: unknown };
    if (type !== 'apiKey' || typeof name !== 'string') continue;
    if (where === 'header') headers.push(name);
    else if (where === 'query') query.push(name);
  }
  return { headers, query };
}
