/**
 * The words of a parameter's name, lower-cased: split at `_`, `-` and before a capital (`type_id_or_name` → type, id,
 * or, name; `poolName` → pool, name). The mock and the runner read a record's naming member from an item path's
 * parameter by its last word (`{pool_name}` ← `name`), and the two fields of `{type_id_or_name}` alike: one reading.
 */
export function wordsOf(name: string): string[] {
  return name
    .split(/[_-]|(?=[A-Z])/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}

/** The last word of a name of several (`pool_name` → `name`); undefined for a name of one word. */
export function lastOfSeveralWords(name: string): string | undefined {
  const words = wordsOf(name);
  return words.length > 1 ? words[words.length - 1] : undefined;
}
