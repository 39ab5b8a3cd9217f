/**
 * The `Prefer` request header (RFC 7240) with Prism's mock conventions, so
 * users can switch between the two: `code=404` forces a documented status,
 * `example=petNotFound` picks a named example, and `delay=250` adds latency;
 * and `fault=reset|empty|malformed` breaks the connection the way networks do
 * (faults.ts), as WireMock's faults do.
 *
 * RFC 7240 §2: names are case-insensitive, only the first instance of a
 * repeated preference counts, and a preference the server does not know is
 * ignored (`return=minimal`, `respond-async`, Prism's `dynamic`). A known
 * preference with an unusable value is a 400, because a developer who typed
 * `code=4o4` wants to hear about it, not to get a 200.
 */
import type { Diagnostic } from '../../src/schema/index.js';
import { FAULTS, isFault, type Fault } from './faults.js';

export interface Preferences {
  readonly code?: number;
  readonly example?: string;
  readonly delayMs?: number;
  readonly fault?: Fault;
  /**
   * Each understood preference as `Preference-Applied` (RFC 7240 §3) would echo it. The core sends only the ones it
   * honoured for this answer: `code=409` is not applied when the request is refused with a 400 first.
   */
  readonly tokens: PreferenceTokens;
}

export interface PreferenceTokens {
  readonly code?: string;
  readonly example?: string;
  readonly delay?: string;
  readonly fault?: string;
}

export type PreferOutcome = { readonly ok: true; readonly preferences?: Preferences } | { readonly ok: false; readonly diagnostics: readonly Diagnostic[] };

/** Latency a client may ask for, at most: long enough to see spinners, short enough not to tie up the server. */
export const MAX_DELAY_MS = 10_000;

const POINTER = '/header/prefer';
const TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
// preference = token [ BWS "=" BWS word ] *( OWS ";" [ OWS parameter ] ), word = token / quoted-string (RFC 7240 §2).
const PREFERENCE = new RegExp(`\\s*(${TOKEN})(?:\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|(${TOKEN})))?(?:\\s*;[^,]*)?\\s*(?:,|$)`, 'y');
const NONE: PreferOutcome = { ok: true };

export function parsePrefer(header: string | undefined): PreferOutcome {
  if (header === undefined || header.trim() === '') return NONE;
  const seen = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  const tokens: { code?: string; example?: string; delay?: string; fault?: string } = {};
  let fault: Fault | undefined;
  let code: number | undefined;
  let example: string | undefined;
  let delayMs: number | undefined;

  PREFERENCE.lastIndex = 0;
  while (PREFERENCE.lastIndex < header.length) {
    const start = PREFERENCE.lastIndex;
    const match = PREFERENCE.exec(header);
    if (!match || PREFERENCE.lastIndex === start) {
      diagnostics.push({ pointer: POINTER, keyword: 'format', message: `is not a list of preferences (RFC 7240), e.g. "code=404, example=petNotFound"` });
      break;
    }
    const name = (match[1] ?? '').toLowerCase();
    const value = match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3];
    if (seen.has(name)) continue;
    seen.add(name);
    switch (name) {
      case 'code':
        if (value === undefined || !/^[1-5][0-9]{2}$/.test(value)) {
          diagnostics.push({ pointer: POINTER, keyword: 'format', message: `code must be a three-digit HTTP status, e.g. code=404; got ${JSON.stringify(value ?? '')}`, actual: value });
        } else {
          code = Number(value);
          tokens.code = `code=${value}`;
        }
        break;
      case 'example':
        if (value === undefined || value === '') {
          diagnostics.push({ pointer: POINTER, keyword: 'format', message: 'example must name an example of the document, e.g. example=petNotFound' });
        } else {
          example = value;
          tokens.example = `example=${/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(value) ? value : JSON.stringify(value)}`;
        }
        break;
      case 'delay':
        if (value === undefined || !/^[0-9]{1,9}$/.test(value)) {
          diagnostics.push({ pointer: POINTER, keyword: 'format', message: `delay must be whole milliseconds from 0 to ${MAX_DELAY_MS}, e.g. delay=250; got ${JSON.stringify(value ?? '')}`, actual: value });
        } else {
          delayMs = Math.min(Number(value), MAX_DELAY_MS);
          tokens.delay = `delay=${delayMs}`;
        }
        break;
      case 'fault':
        if (value === undefined || !isFault(value)) {
          diagnostics.push({ pointer: POINTER, keyword: 'enum', message: `fault must be one of ${FAULTS.join(', ')}; got ${JSON.stringify(value ?? '')}`, actual: value });
        } else {
          fault = value;
          tokens.fault = `fault=${value}`;
        }
        break;
      default:
      // Unknown preferences are ignored (RFC 7240 §2).
    }
  }
  if (diagnostics.length > 0) return { ok: false, diagnostics };
  if (code === undefined && example === undefined && delayMs === undefined && fault === undefined) return NONE;
  return {
    ok: true,
    preferences: {
      ...(code !== undefined ? { code } : {}),
      ...(example !== undefined ? { example } : {}),
      ...(delayMs !== undefined ? { delayMs } : {}),
      ...(fault !== undefined ? { fault } : {}),
      tokens,
    },
  };
}
