import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // The README's MSW example (mock/readme-examples) imports the kit by its package name, as a user would; run it
    // against the source, as tsconfig.json's `paths` type-checks it (the published package resolves it to dist/).
    alias: [{ find: /^petstore-kit\/msw$/, replacement: fileURLToPath(new URL('./mock/msw.ts', import.meta.url)) }],
  },
  test: {
    include: ['src/**/*.test.ts', 'mock/**/*.test.ts', 'conformance/**/*.test.ts', 'bench/**/*.test.ts', 'fixtures/**/*.test.ts'],
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
  },
});
