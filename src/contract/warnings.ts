/**
 * What the kit could not use in a document it takes as valid OpenAPI (an
 * extension in a shape it does not read, a format it does not know, a
 * pattern the linear-time engine cannot run). A warning never refuses the document: it
 * names where, what, and which checks go without it, for the report.
 */
export interface ContractWarning {
  /** JSON pointer into the document. */
  readonly pointer: string;
  readonly message: string;
  /** What the kit leaves out because of it ("values are not checked against this format"). */
  readonly skipped: string;
}

/**
 * An append-only list of warnings, without repeats: the loader adds what it
 * finds, and the validators add what they find when they are compiled (lazily,
 * for a document from elsewhere), so the report lists everything the run met.
 */
export class WarningList {
  readonly #items: ContractWarning[] = [];
  readonly #seen = new Set<string>();

  add(warning: ContractWarning): void {
    const key = `${warning.pointer}\n${warning.message}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.#items.push(Object.freeze({ ...warning }));
  }

  /** The warnings so far, in the order they were met. */
  get items(): readonly ContractWarning[] {
    return this.#items;
  }
}
