/**
 * One line per request: method, path, status, milliseconds, and the notes
 * the core attached (the deprecation warning, relaxed-validation problems).
 * Header values are never logged, so an `Authorization` or `Cookie` a
 * front-end sends cannot end up in a terminal or a CI log; neither is the
 * query string, which can carry tokens too.
 */

const MAX_PATH = 200;

export function formatRequestLine(method: string, path: string, status: number, millis: number, notes: readonly string[] | undefined): string {
  const shown = path.length > MAX_PATH ? `${path.slice(0, MAX_PATH)}…(${path.length} chars)` : path;
  // Control characters in a path could forge log lines or move a terminal's cursor; show them escaped.
  const safe = shown.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  let line = `${method} ${safe} ${status} ${millis.toFixed(1)}ms`;
  if (notes) for (const note of notes) line += ` | warning: ${note}`;
  return line;
}
