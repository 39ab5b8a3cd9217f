/**
 * The secrets a session meets, so none reaches a violation line, a report, a HAR file or a recorded fixture:
 * the `--header` values the proxy adds, and the credentials the traffic itself carries: the headers redact.ts treats
 * as credentials (Authorization, cookies, API keys), the `--header` names, and the headers, cookies and query
 * parameters the document's security schemes name (an apiKey, OpenAPI 3.0.3 §4.7.33). redact.ts does the scrubbing,
 * in every form a target may echo a value in.
 *
 * What the session keeps of an exchange (its evidence, its recorded records, its HAR entry) is scrubbed when it is
 * kept, by the redactor `learn` returns for that exchange, and once more when it is written out, by the book's: a
 * value a body showed before the traffic used it as a credential (a key handed out, then sent) is caught then. So the
 * book never forgets a value it learnt (forgetting one let it back into what was kept before: review 1, finding 1).
 * It learns a bounded number; past the bound an exchange's own credentials are still scrubbed from what is kept of
 * that exchange, and from every header they sit under, but not where another exchange echoes them: the report says so.
 */
import type { Contract } from '../../src/contract/index.js';
import type { RunWarning } from '../model.js';
import { createRedactor, type RedactOptions, type Redactor } from '../reporters/index.js';
import { secretForms } from '../reporters/redact.js';

/** Distinct secret values learnt at most; the redactor's work grows with them (each in some twenty echoed forms). */
export const MAX_SECRETS = 256;
/** A shorter value is no secret worth scrubbing from text (redact.ts MIN_SECRET_LENGTH). */
const MIN_SECRET_LENGTH = 4;

type Headers = Readonly<Record<string, string | readonly string[] | undefined>>;

export class SecretBook {
  private readonly names: readonly string[];
  private readonly given: ReadonlySet<string>;
  private readonly learnt = new Set<string>();
  private redactorMemo: Redactor | undefined;
  private readonly byName: Redactor;
  private readonly queryNames: ReadonlySet<string>;
  /** Exchanges that carried a credential past the bound. */
  private unlearntIn = 0;

  constructor(contract: Contract, headerNames: readonly string[], headerValues: readonly string[]) {
    const schemes = credentialParameters(contract);
    this.names = [...headerNames, ...schemes.headers].map((name) => name.toLowerCase());
    this.queryNames = new Set(schemes.query);
    this.given = new Set(headerValues);
    this.byName = createRedactor({ headerNames: this.names });
  }

  /**
   * Notes the credentials one exchange carried (its request's and its answer's headers, and the query parameters
   * the document names as credentials) and returns the redactor for what is kept of it: the book's, or past the
   * bound the book's followed by one that knows this exchange's own values.
   */
  learn(requestHeaders: Headers, responseHeaders: Headers, query: Readonly<Record<string, string | readonly string[]>> | undefined): Redactor {
    const unlearnt: string[] = [];
    const note = (secret: string): void => {
      if (secret.length < MIN_SECRET_LENGTH || this.given.has(secret) || this.learnt.has(secret)) return;
      if (this.learnt.size >= MAX_SECRETS) {
        unlearnt.push(secret);
        return;
      }
      this.learnt.add(secret);
      this.redactorMemo = undefined;
    };
    this.headerSecrets(requestHeaders, note);
    this.headerSecrets(responseHeaders, note);
    if (query !== undefined) this.querySecrets(query, note);
    if (unlearnt.length === 0) return this.redactor;
    this.unlearntIn += 1;
    return chained(this.redactor, createRedactor({ headerNames: this.names, secrets: unlearnt }));
  }

  /** Whether the document names a query parameter that carries credentials: only then is a query worth reading. */
  get watchesQuery(): boolean {
    return this.queryNames.size > 0;
  }

  /** What the reporters take to redact (reporters/index.ts ReporterOptions.redact): every value ever learnt. */
  get options(): RedactOptions {
    return { headerNames: this.names, secrets: [...this.given, ...this.learnt] };
  }

  get redactor(): Redactor {
    return (this.redactorMemo ??= prefiltered(createRedactor(this.options), this.options.secrets ?? []));
  }

  /** How many values the book holds: what a record kept earlier may not have been scrubbed of yet (record.ts). */
  get generation(): number {
    return this.learnt.size;
  }

  /** The report's word on the bound, once it was reached. */
  warning(): RunWarning | undefined {
    if (this.unlearntIn === 0) return undefined;
    return {
      pointer: '',
      message: `${this.unlearntIn} exchange${this.unlearntIn === 1 ? '' : 's'} carried credential values past the first ${MAX_SECRETS} the proxy learns: each is redacted from its own exchange's evidence, recording and HAR entry, and under its header name everywhere, but not where another exchange's body echoes it`,
      skipped: 'scrubbing those values from the other exchanges kept',
    };
  }

  private headerSecrets(headers: Headers, note: (secret: string) => void): void {
    for (const name in headers) {
      if (!this.byName.isSensitive(name)) continue;
      const value = headers[name];
      if (value === undefined) continue;
      for (const item of typeof value === 'string' ? [value] : value) for (const secret of secretsIn(name, item)) note(secret);
    }
  }

  /** The values of the query parameters the document's security schemes name (`?api_key=…`). */
  private querySecrets(query: Readonly<Record<string, string | readonly string[]>>, note: (secret: string) => void): void {
    for (const name of this.queryNames) {
      const value = query[name];
      if (value === undefined) continue;
      for (const item of typeof value === 'string' ? [value] : value) note(item);
    }
  }
}

/**
 * The redactor with a quick first look in `text`: a value in which no secret form's first four characters occur, and
 * no `@` (a URL's user:password@, which redact.ts also scrubs), is returned as it is, without trying each of the
 * thousands of forms a full book holds. Every form is at least four characters long (redact.ts), so a value that
 * holds one holds its first four; a hash that merely collides only costs the full scrub.
 */
export function prefiltered(redactor: Redactor, secrets: readonly string[]): Redactor {
  const heads = new Set<number>();
  for (const secret of secrets) for (const form of secretForms(secret)) if (form.length >= MIN_SECRET_LENGTH) heads.add(headHash(form, 0));
  if (heads.size === 0) return redactor;
  const mayHold = (value: string): boolean => {
    if (value.includes('@')) return true;
    for (let i = 0; i + 4 <= value.length; i += 1) if (heads.has(headHash(value, i))) return true;
    return false;
  };
  return { ...redactor, text: (value) => (mayHold(value) ? redactor.text(value) : value) };
}

/** A hash of the four characters of `text` from `at`. */
function headHash(text: string, at: number): number {
  return (((text.charCodeAt(at) * 31 + text.charCodeAt(at + 1)) * 31 + text.charCodeAt(at + 2)) * 31 + text.charCodeAt(at + 3)) | 0;
}

/** `first`, then `second`: what either knows is scrubbed. */
function chained(first: Redactor, second: Redactor): Redactor {
  return {
    isSensitive: (name) => first.isSensitive(name) || second.isSensitive(name),
    text: (value) => second.text(first.text(value)),
    headers: (record) => second.headers(first.headers(record)),
    result: (result) => second.result(first.result(result)),
    report: (report) => second.report(first.report(report)),
  };
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
