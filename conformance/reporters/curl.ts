/**
 * A failure reproduced in one paste: the exact request as a `curl` command.
 * Header values the report redacted (the `--header` ones and credentials)
 * become shell variables, `$PETSTORE_HEADER_<NAME>`, so the command carries
 * no secret and still works once the person exports the variable.
 */
import type { Exchange } from '../model.js';
import { REDACTED } from './redact.js';

/** Headers curl (or the HTTP layer) sets by itself: repeating them only adds noise, and a wrong length would break the paste. */
const IMPLICIT = new Set(['content-length', 'host', 'connection', 'transfer-encoding']);

/** `$PETSTORE_HEADER_AUTHORIZATION` for Authorization, `$PETSTORE_HEADER_X_API_KEY` for X-Api-Key. */
export function headerVariable(name: string): string {
  return `PETSTORE_HEADER_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** POSIX single quoting: everything literal; a single quote is closed, escaped and reopened. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

export interface CurlCommand {
  readonly command: string;
  /** Variables the command reads, one per redacted header. */
  readonly variables: readonly string[];
  /** True when the recorded body was clipped, so the command does not send the exact bytes. */
  readonly bodyClipped: boolean;
}

/** The request of an exchange as a curl command line. */
export function curlCommand(ex: Exchange): CurlCommand {
  const parts = ['curl', '-i', '-X', ex.request.method, shellQuote(ex.request.url)];
  const variables: string[] = [];
  for (const [name, value] of Object.entries(ex.request.headers)) {
    if (IMPLICIT.has(name.toLowerCase())) continue;
    if (value === REDACTED) {
      const variable = headerVariable(name);
      variables.push(variable);
      // Double quotes so the shell expands the variable; a header name holds no character the shell treats specially in them.
      parts.push('-H', `"${name}: $${variable}"`);
    } else {
      parts.push('-H', shellQuote(`${name}: ${value}`));
    }
  }
  const body = ex.request.body;
  // The recorder clips a body past 2 KiB and marks the cut with a trailing ellipsis (conformance/http.ts).
  const bodyClipped = body !== undefined && body.length > 2048 && body.endsWith('…');
  if (body !== undefined) parts.push('--data-binary', shellQuote(body));
  return { command: parts.join(' '), variables, bodyClipped };
}

/** The command as one line, with a note when it needs variables or could not carry the whole body. */
export function curlLine(ex: Exchange): string {
  const { command, variables, bodyClipped } = curlCommand(ex);
  const notes: string[] = [];
  if (variables.length > 0) notes.push(`export ${variables.join(', ')} first (the values given with --header)`);
  if (bodyClipped) notes.push('the body was clipped in the report; the JSON report has the first 2 KiB');
  return notes.length > 0 ? `${command}  # ${notes.join('; ')}` : command;
}
