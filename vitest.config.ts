import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const ROOT = fileURLToPath(new URL('.', import.meta.url));

/**
 * Two tiers, one visible rule (issue 33): a file named `*.full.test.ts` runs only in the full tier
 * (`npm run test:all`, what CI runs); every other test file runs in both. `npm test` is the fast tier.
 * `bin/dev/test.mjs --all` sets PETSTORE_KIT_TIER=full; `src/test-tier.ts` reads the same variable for the
 * suites that scale their case count by tier (property-based tests, catalogue slices).
 */
const FULL_TIER = process.env.PETSTORE_KIT_TIER === 'full';
const TIER_EXCLUDE = FULL_TIER ? [] : ['**/*.full.test.ts'];

/**
 * The files that take minutes (issue 23, point 2), longest first (a name of the other tier is simply not met). They start before everything else: started last
 * (vitest's default order on a fresh clone is by file size, and these are small files that run long), one of them
 * alone would stretch the end of the run by its whole length while the other workers sit idle.
 */
const LONGEST_FIRST = [
  // The full tier's (npm run test:all).
  'mock/engine/corpus.e2e.full.test.ts',
  'conformance/defective.full.test.ts',
  'conformance/reference.full.test.ts',
  'conformance/vendor-fastify.full.test.ts',
  'conformance/independent.full.test.ts',
  // Both tiers', but it draws many more documents in the full tier (113 s there): started 372 s into a run of 485 s on a
  // fresh clone, it alone made the run's last two minutes.
  'mock/engine/any-document.test.ts',
  'conformance/published-prism.full.test.ts',
  'conformance/hostile-target.full.test.ts',
  'src/contract/ecosystem-tools.full.test.ts',
  'conformance/big-document.full.test.ts',
  // Both tiers'.
  'mock/engine/corpus.e2e.test.ts',
  'conformance/defective.test.ts',
  'conformance/independent.test.ts',
  'conformance/reference.test.ts',
  'conformance/foreign-docs.test.ts',
  'conformance/cli.test.ts',
  'conformance/published-prism.test.ts',
]

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (spec: TestSpecification): number => {
      const index = LONGEST_FIRST.indexOf(relative(ROOT, spec.moduleId));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    // Array.prototype.sort is stable: the rest keep vitest's own order (failed first, then by the last run's duration).
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * Files that need a process of their own: those that bound the RSS of the process they run in (which files run
 * before them in a shared process would inflate), those that patch a global (MSW's setupServer replaces the global
 * fetch), those that drive a browser or a bundler, and mock/readme-examples/, which was not measured shared.
 * mock/engine/ runs shared but for its one MSW file and its full-tier corpus: measured (2 cores, fast tier, 28 files), own process 82 s wall and
 * 93 s of CPU, shared 51 s and 64 s.
 */
const OWN_PROCESS = [
  'src/contract/big-document.test.ts',
  'conformance/big-document.full.test.ts',
  'conformance/hostile-target.full.test.ts',
  'mock/e2e/msw.e2e.test.ts',
  'mock/e2e/msw-generic.e2e.test.ts',
  'mock/e2e/faults.e2e.test.ts',
  'mock/e2e/browser.e2e.test.ts',
  'mock/e2e/browser-bundle.test.ts',
  'mock/engine/published-rules.e2e.test.ts',
  // The full tier's published corpus (Xero's accounting document among them): minutes of work whose heap is not left
  // to the files after it; a process's start is nothing beside it.
  'mock/engine/*.full.test.ts',
  'mock/readme-examples/**/*.test.ts',
];

export default defineConfig({
  resolve: {
    // The README's MSW example (mock/readme-examples) imports the kit by its package name, as a user would; run it
    // against the source, as tsconfig.json's `paths` type-checks it (the published package resolves it to dist/).
    alias: [{ find: /^petstore-kit\/msw$/, replacement: fileURLToPath(new URL('./mock/msw/node.ts', import.meta.url)) }],
  },
  test: {
    // Which files run is said by the projects below (an include here would be added to each project's own).
    // End-to-end tests start real servers (and Prism) on loopback; give them room on a 2-core CI machine that is
    // busy with other work too (at 30 s, full conformance runs timed out there while nothing was wrong). A limit
    // only bounds a hang; it costs nothing when tests pass.
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: ONE on a 2-core machine, so the files ran one after the
    // other while most of them wait (on loopback servers, Prism, the CLI and npm as child processes, Chromium): a
    // serial run got a third of a core. Four workers at least keep both cores busy (issue 23, point 2).
    maxWorkers: Math.max(availableParallelism(), 4),
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        // No test file here patches a global (MSW's setupServer, fake timers, module mocks: none; spies are on local
        // objects or restored), so a worker runs one file after another in the same process: each file no longer
        // pays a fresh process and a fresh import of the kit (issue 23, point 2). Measured, user+sys CPU isolated ->
        // shared: src/ 151 s -> 108 s; 20 lighter conformance files 43 s -> 24 s; mock/*.test.ts (31 files) 140 s -> 83 s.
        extends: true,
        test: {
          name: 'shared-process',
          include: ['src/**/*.test.ts', 'conformance/**/*.test.ts', 'bench/**/*.test.ts', 'fixtures/**/*.test.ts', 'mock/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...OWN_PROCESS, ...TIER_EXCLUDE],
          isolate: false,
        },
      },
      {
        // vitest's default: a fresh process per file.
        extends: true,
        test: { name: 'own-process', include: OWN_PROCESS, exclude: [...configDefaults.exclude, ...TIER_EXCLUDE] },
      },
    ],
  },
});
