import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'mock/**/*.test.ts', 'conformance/**/*.test.ts', 'bench/**/*.test.ts', 'fixtures/**/*.test.ts'],
    // End-to-end tests start real servers (and Prism) on loopback; give them room on a 2-core CI machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
