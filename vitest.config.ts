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
    // End-to-end tests start real servers (and Prism) on loopback; give them room on a 2-core CI machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
