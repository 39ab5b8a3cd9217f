/**
 * Defence in depth for secrets (contract.md: the runner "never prints their
 * values"). The runner already records `--header` values as "[redacted]";
 * every reporter still passes the report through here before rendering, so a
 * runner bug, a server that echoes a token back in a body, or a cookie set by
 * the target cannot end up in a file a vendor shares.
 */
import { mapLeaves } from '../json.js';
import type { CheckResult, Exchange, RunMeta, RunReport } from '../model.js';

export const REDACTED = '[redacted]';

/** Header names whose values are credentials whoever sent them (RFC 9110 section 11.6, RFC 6265). */
const ALWAYS_SENSITIVE: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-auth-token',
  'x-csrf-token',
];

/**
 * A secret shorter than this is not scrubbed from free text: replacing every
 * "1" or "ok" in a report would wreck it, and such a value guards nothing.
 * Header values under a sensitive name are redacted whatever their length.
 */
const MIN_SECRET_LENGTH = 4;

/**
 * The forms in which a target may echo a header value back (issue 12, finding 3: a target that echoed
 * `s3cret` alone, or `Bearer%20s3cret`, put the token into every report): the whole value and, for
 * `Scheme credentials` (RFC 9110 §11.4), the credentials alone; each as sent, percent-encoded (RFC 3986
 * §2.1, upper- and lower-case hex; `+` for spaces as in forms), JSON-escaped, and in base64 and base64url
 * (RFC 4648 §4, §5); and a Basic credential decoded (RFC 7617 §2: base64 of user:password).
 */
export function secretForms(value: string): string[] {
  const scheme = /^[A-Za-z][!#$%&'*+.^_`|~0-9A-Za-z-]*\s+(\S.*)$/.exec(value);
  const plain = [value, ...(scheme?.[1] ? [scheme[1]] : [])];
  const decoded = scheme?.[1] ? decodedBase64(scheme[1]) : undefined;
  if (decoded !== undefined) plain.push(decoded, ...decoded.split(':').slice(1));
  const forms = new Set<string>();
  for (const form of plain) {
    const encoded = encodeURIComponent(form);
    forms.add(form);
    forms.add(encoded);
    forms.add(encoded.replace(/%20/g, '+'));
    forms.add(encoded.replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()));
    forms.add(JSON.stringify(form).slice(1, -1));
    const base64 = Buffer.from(form, 'utf8').toString('base64');
    forms.add(base64);
    forms.add(base64.replace(/=+$/, ''));
    forms.add(Buffer.from(form, 'utf8').toString('base64url'));
  }
  return [...forms];
}

/** Printable text that `token` is the base64 of, or undefined when it is not base64 of text. */
function decodedBase64(token: string): string | undefined {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(token) || token.length % 4 !== 0) return undefined;
  const text = Buffer.from(token, 'base64').toString('utf8');
  return /^[\x20-\x7e]+$/.test(text) ? text : undefined;
}

export interface RedactOptions {
  /** More header names whose values must never be printed (e.g. the names given with --header). */
  readonly headerNames?: readonly string[];
  /** Values that must never be printed anywhere (e.g. the values given with --header). */
  readonly secrets?: readonly string[];
}

export interface Redactor {
  isSensitive(headerName: string): boolean;
  headers(headers: Readonly<Record<string, string>>): Record<string, string>;
  /** Scrubs every known secret value out of free text. */
  text(value: string): string;
  /** One result: its title, reason, findings and evidence (what a session keeps of an exchange as it goes). */
  result(result: CheckResult): CheckResult;
  report(report: RunReport): RunReport;
}

/**
 * The header names and values the user passed, as the runner recorded them in
 * `meta.options`. The runner keeps names only, but this accepts the forms a
 * runner might use (`["Name"]`, `["Name: value"]`, `{Name: value}`) so a
 * value that slipped in is still treated as a secret.
 */
export function userHeadersFromOptions(options: Readonly<Record<string, unknown>>): { names: string[]; secrets: string[] } {
  const names: string[] = [];
  const secrets: string[] = [];
  for (const key of ['headers', 'header', 'headerNames']) {
    const value = options[key];
    if (Array.isArray(value)) {
      for (const item of value) {
        if (typeof item !== 'string') continue;
        const colon = item.indexOf(':');
        if (colon === -1) names.push(item.trim());
        else {
          names.push(item.slice(0, colon).trim());
          const secret = item.slice(colon + 1).trim();
          if (secret && secret !== REDACTED) secrets.push(secret);
        }
      }
    } else if (isRecord(value)) {
      for (const [name, secret] of Object.entries(value)) {
        names.push(name);
        if (typeof secret === 'string' && secret && secret !== REDACTED) secrets.push(secret);
      }
    }
  }
  return { names: names.filter(Boolean), secrets };
}

export function createRedactor(options: RedactOptions = {}): Redactor {
  const sensitive = new Set([...ALWAYS_SENSITIVE, ...(options.headerNames ?? []).map((n) => n.toLowerCase())]);
  // Every form a server may echo each secret in; longest first, so a form that contains another is replaced whole.
  const secrets = [...new Set((options.secrets ?? []).flatMap(secretForms))].filter((s) => s.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);

  const text = (value: string): string => {
    // A password in a URL's userinfo (RFC 3986 section 3.2.1, deprecated but still seen in --base-url).
    let out = value.replace(/(\/\/[^/\s:@]*:)[^@\s/]*@/g, `$1${REDACTED}@`);
    for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  };

  const isSensitive = (name: string): boolean => sensitive.has(name.toLowerCase());

  const headers = (record: Readonly<Record<string, string>>): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(record)) out[name] = isSensitive(name) ? REDACTED : text(value);
    return out;
  };

  /**
   * Any JSON value (a finding's expected/actual, the run's options): every string in it scrubbed. Iterative
   * (mapLeaves), since what a hostile target answered can be 100,000 arrays deep and recursion would overflow
   * the stack; keys are defined, not assigned, so a `__proto__` key stays a plain field.
   */
  const deep = (value: unknown): unknown => mapLeaves(value, (leaf) => (typeof leaf === 'string' ? text(leaf) : leaf));

  const exchange = (ex: Exchange): Exchange => ({
    ...ex,
    request: {
      ...ex.request,
      url: text(ex.request.url),
      headers: headers(ex.request.headers),
      ...(ex.request.body !== undefined ? { body: text(ex.request.body) } : {}),
    },
    ...(ex.response
      ? { response: { ...ex.response, headers: headers(ex.response.headers), bodyExcerpt: text(ex.response.bodyExcerpt) } }
      : {}),
    ...(ex.error ? { error: { code: ex.error.code, message: text(ex.error.message) } } : {}),
  });

  const result = (r: CheckResult): CheckResult => ({
    ...r,
    title: text(r.title),
    ...(r.reason !== undefined ? { reason: text(r.reason) } : {}),
    findings: r.findings.map((f) => ({
      ...f,
      pointer: text(f.pointer),
      message: text(f.message),
      ...('expected' in f ? { expected: deep(f.expected) } : {}),
      ...('actual' in f ? { actual: deep(f.actual) } : {}),
    })),
    evidence: r.evidence.map(exchange),
    ...(r.mutation ? { mutation: { ...r.mutation, description: text(r.mutation.description) } } : {}),
  });

  const meta = (m: RunMeta): RunMeta => ({ ...m, target: text(m.target), options: redactOptions(m.options, deep) });

  return {
    isSensitive,
    headers,
    text,
    result,
    report: (r) => ({
      ...r,
      meta: meta(r.meta),
      results: r.results.map(result),
      cleanup: { ...r.cleanup, leftBehind: r.cleanup.leftBehind.map((l) => ({ ...l, url: text(l.url), reason: text(l.reason) })) },
    }),
  };
}

/** The redactor a reporter uses for one report: the fixed names, the caller's, and whatever the report's options name. */
export function redactorFor(report: Pick<RunReport, 'meta'>, options: RedactOptions = {}): Redactor {
  const fromReport = userHeadersFromOptions(report.meta.options);
  return createRedactor({
    headerNames: [...(options.headerNames ?? []), ...fromReport.names],
    secrets: [...(options.secrets ?? []), ...fromReport.secrets],
  });
}

/** `--header` stays in the options by name only, whatever form the runner recorded it in. */
function redactOptions(options: Readonly<Record<string, unknown>>, deep: (v: unknown) => unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(options)) {
    if (key === 'headers' || key === 'header' || key === 'headerNames') out[key] = deep(headerNamesOnly(value));
    else out[key] = deep(value);
  }
  return out;
}

function headerNamesOnly(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map((item) => (typeof item === 'string' && item.includes(':') ? item.slice(0, item.indexOf(':')).trim() : item));
  }
  if (isRecord(value)) return Object.fromEntries(Object.keys(value).map((name) => [name, REDACTED]));
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
