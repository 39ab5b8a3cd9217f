/**
 * The secrets a session meets, so none reaches a violation line, a report, a HAR file or a recorded fixture:
 * the `--header` values the proxy adds, and the credentials the traffic itself carries (Authorization, cookies, API
 * keys: the names redact.ts treats as credentials, plus the `--header` names). Values are learnt as exchanges pass,
 * bounded in number; redact.ts does the scrubbing, in every form a target may echo a value in.
 */
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

  constructor(headerNames: readonly string[], headerValues: readonly string[]) {
    this.names = headerNames.map((name) => name.toLowerCase());
    this.given = headerValues;
    this.byName = createRedactor({ headerNames: this.names });
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
