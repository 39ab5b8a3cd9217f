/**
 * `--watch`: the mock follows edits to openapi.yaml and the fixtures while it runs (issue 13, point 7).
 *
 * - The document changed: it is loaded and compiled again. If it is invalid, the reason is logged and the previous
 *   document keeps serving. If it is valid, the new core takes over; the stores are kept when their data still
 *   satisfies the new document (an edited example, description or new optional field), and otherwise start again
 *   from the initial data, and the log says which.
 * - The fixtures changed: the stores start again from the new data (that is what editing fixtures asks for); an
 *   invalid fixture is logged and the previous data keeps serving.
 *
 * Folders are watched rather than files, since editors save by writing a new file and renaming it over the old one,
 * which a watch on the old file would miss; bursts of events are folded into one reload.
 */
import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { KitError } from '../../src/kit-error.js';
import type { CompiledContract } from '../../src/schema/index.js';
import type { MockApp } from '../engine/app.js';
import type { FixtureProblem } from '../engine/seam.js';

/** A MockApp whose core can be replaced while the server keeps running: what the node:http adapter serves under --watch. */
export interface LiveApp extends MockApp {
  swap(next: MockApp): void;
}

export function createLiveApp(initial: MockApp): LiveApp {
  let current = initial;
  return {
    handle: (request) => current.handle(request),
    bodyLimit: (path) => current.bodyLimit(path),
    internalError: () => current.internalError(),
    unparsableRequest: (message) => current.unparsableRequest(message),
    requestTimeout: (message) => current.requestTimeout(message),
    get contract() {
      return current.contract;
    },
    get journal() {
      return current.journal;
    },
    get basePath() {
      return current.basePath;
    },
    startBackground: () => current.startBackground(),
    close: () => current.close(),
    carry: () => current.carry(),
    reset: (session) => current.reset(session),
    fixtureProblems: () => current.fixtureProblems(),
    get carried() {
      return current.carried;
    },
    swap(next) {
      current.close();
      current = next;
      next.startBackground();
    },
  };
}

export interface WatchSources {
  readonly specPath: string;
  /** The fixtures folder, when the data comes from one (not with --seed or --fixtures none). */
  readonly fixturesDir?: string;
  /** The behaviour module (`--behaviour`), reloaded with the core when it changes. */
  readonly behaviourFile?: string;
  readonly live: LiveApp;
  /** The compiled document the running core was built from. */
  readonly compiled: CompiledContract;
  loadCompiled(specPath: string): Promise<CompiledContract>;
  /** `carry`: hand the previous core's data to the new one (a document reloaded, not the fixtures). */
  makeApp(compiled: CompiledContract, previous: MockApp, carry: boolean): Promise<MockApp>;
  readonly log: (line: string) => void;
}

/** How long a burst of file events may last before one reload runs. */
const SETTLE_MS = 150;

export function watchSources(sources: WatchSources): { close(): void } {
  const specFile = resolve(sources.specPath);
  let compiled = sources.compiled;
  let pending: { spec: boolean; fixtures: boolean; behaviour: boolean } = { spec: false, fixtures: false, behaviour: false };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const reload = async (what: { spec: boolean; fixtures: boolean; behaviour: boolean }): Promise<void> => {
    const { live, log } = sources;
    let nextCompiled = compiled;
    if (what.spec) {
      try {
        nextCompiled = await sources.loadCompiled(specFile);
      } catch (error) {
        log(`watch: ${basename(specFile)} was not reloaded, ${reason(error)}; the previous document keeps serving`);
        if (!what.fixtures) return;
        nextCompiled = compiled;
      }
    }
    const specReloaded = what.spec && nextCompiled !== compiled;
    // The stores survive a new document while their data still satisfies it; new fixtures always start them afresh.
    // The new core is handed the data held, and keeps it where it still fits.
    let next: MockApp;
    try {
      next = await sources.makeApp(nextCompiled, live, !what.fixtures);
    } catch (error) {
      if (!what.fixtures) throw error;
      log(`watch: the fixtures were not reloaded, ${reason(error)}; the previous data keeps serving`);
      return;
    }
    // The generic engine fits fixture records to its document; a reloaded document they satisfy less than the previous
    // one is refused, naming the first record and rule it adds, not fitted in silence.
    const added = what.fixtures ? [] : newProblems(live.fixtureProblems(), next.fixtureProblems());
    if (added.length > 0) {
      next.close();
      log(`watch: ${basename(specFile)} was not reloaded: the fixtures do not satisfy it, ${describeFixtureProblems(added)}; the previous document keeps serving`);
      return;
    }
    live.swap(next);
    compiled = nextCompiled;
    const parts = [specReloaded ? `${basename(specFile)} (${nextCompiled.contract.operations.length} operations)` : undefined, what.fixtures ? 'the fixtures' : undefined, what.behaviour ? `the behaviour module ${basename(sources.behaviourFile ?? '')}` : undefined].filter(Boolean);
    const carried = next.carried;
    const kept = carried?.kept === true;
    const why = carried?.why !== undefined ? ` (the data held does not satisfy the new document: ${carried.why})` : '';
    log(`watch: reloaded ${parts.join(' and ')}; ${kept ? 'the data is kept' : `the data starts again from the fixtures${why}`}`);
  };

  const schedule = (kind: 'spec' | 'fixtures' | 'behaviour'): void => {
    pending = { ...pending, [kind]: true };
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      const what = pending;
      pending = { spec: false, fixtures: false, behaviour: false };
      // One reload at a time, in order: a second edit waits for the first reload to finish.
      running = running.then(() => reload(what)).catch((error: unknown) => sources.log(`watch: reload failed, ${reason(error)}`));
    }, SETTLE_MS);
  };

  const watchers: FSWatcher[] = [
    watch(dirname(specFile), (_event, name) => {
      if (name === basename(specFile)) schedule('spec');
    }),
  ];
  if (sources.behaviourFile !== undefined) {
    const file = resolve(sources.behaviourFile);
    watchers.push(
      watch(dirname(file), (_event, name) => {
        if (name === basename(file)) schedule('behaviour');
      }),
    );
  }
  if (sources.fixturesDir) {
    watchers.push(
      watch(resolve(sources.fixturesDir), (_event, name) => {
        if (name?.endsWith('.json')) schedule('fixtures');
      }),
    );
  }
  return {
    close() {
      if (timer) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}

/** The problems of `after` that `before` did not have, by record, spot and rule. */
function newProblems(before: readonly FixtureProblem[], after: readonly FixtureProblem[]): readonly FixtureProblem[] {
  const key = (p: FixtureProblem): string => `${p.file}\u0000${p.index}\u0000${p.pointer}\u0000${p.keyword}`;
  const had = new Set(before.map(key));
  return after.filter((p) => !had.has(key(p)));
}

/** The first problem of the fixtures, naming the record and the rule it breaks, and how many more: `pets.json record 0 (id 1) at /name: maxLength of the document's Pet schema: …`. */
function describeFixtureProblems(problems: readonly FixtureProblem[]): string {
  const [first] = problems;
  if (first === undefined) return 'no problem';
  const named = first.id ? ` (${first.id.field} ${String(first.id.value)})` : '';
  const schema = first.schema !== undefined ? `the document's ${first.schema} schema` : 'its record schema';
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more)` : '';
  return `${first.file} record ${first.index}${named}${first.pointer ? ` at ${first.pointer}` : ''}: ${first.keyword} of ${schema}: ${first.message}${more}`;
}

function reason(error: unknown): string {
  if (error instanceof KitError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
