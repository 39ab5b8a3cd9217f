/**
 * `petstore-kit mock`: flags (from the one options table, src/cli/options.ts)
 * → MockOptions → startMock. Prints exactly one line on stdout once serving,
 * `listening on http://HOST:PORT`, so scripts can wait for it and read the
 * port; request logs go to stderr. SIGINT and SIGTERM close it gracefully and
 * the command resolves with 0.
 */
import { choiceOption, integerOption, parseCommand } from '../src/cli/parse.js';
import { KitError } from '../src/kit-error.js';
import { ADMIN_TOKEN_ENV } from './admin-access.js';
import { parseRfc3339 } from './clock.js';
import { isValidOriginSetting } from './cors.js';
import type { MockOptions } from './server.js';
import { normalizeBasePath, VALIDATION_MODES } from './settings.js';

/** Generous for a demo, bounded so a typo (an extra 0) fails clearly instead of exhausting memory. */
const MAX_PETS = 5_000_000;
/** Each session is a copy of the data: bounded for the same reason. */
const MAX_SESSIONS = 10_000;
/** Each connection is a file descriptor; the kernel's own limit is rarely above this. */
const MAX_CONNECTIONS = 1_000_000;

export function mockOptionsFrom(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): MockOptions {
  const raw = parseCommand('mock', argv);
  const port = integerOption('mock', 'port', raw.port, 0, 65535);
  const seed = integerOption('mock', 'seed', raw.seed, 0, Number.MAX_SAFE_INTEGER);
  const pets = integerOption('mock', 'pets', raw.pets, 0, MAX_PETS);
  const validation = choiceOption('mock', 'validation', raw.validation, VALIDATION_MODES);
  const maxSessions = integerOption('mock', 'max-sessions', raw['max-sessions'], 1, MAX_SESSIONS);
  const maxConnections = integerOption('mock', 'max-connections', raw['max-connections'], 1, MAX_CONNECTIONS);
  // At least a second; more than the longest Prefer: delay (10 s) unless delayed answers may be cut.
  const idleTimeoutMs = integerOption('mock', 'idle-timeout', raw['idle-timeout'], 1000, 3_600_000);

  if (seed !== undefined && raw.fixtures !== undefined && raw.fixtures !== 'none') {
    throw new KitError('USAGE', 'petstore-kit mock: --seed generates the data, --fixtures reads it from a folder; give one of them (or --fixtures none with --seed).');
  }
  let now: Date | undefined;
  if (raw.now !== undefined) {
    const millis = parseRfc3339(raw.now);
    if (millis === undefined) throw new KitError('USAGE', `petstore-kit mock: --now takes an RFC 3339 date-time with an offset, e.g. 2027-07-01T00:00:00Z; got '${raw.now}'.`);
    now = new Date(millis);
  }
  const corsOrigin = raw['cors-origin'];
  if (corsOrigin !== undefined && !isValidOriginSetting(corsOrigin)) {
    throw new KitError('USAGE', `petstore-kit mock: --cors-origin takes * or an origin such as http://localhost:5173 (scheme, host and port only); got '${corsOrigin}'.`);
  }
  const basePath = raw['base-path'] === undefined ? undefined : normalizeBasePath(raw['base-path']);
  const host = raw.host;
  if (host !== undefined && host.trim() === '') throw new KitError('USAGE', 'petstore-kit mock: --host takes an address such as 127.0.0.1.');
  // The flag wins over the environment; neither is ever echoed (a secret in a message ends up in CI logs).
  const adminToken = raw['admin-token'] ?? env[ADMIN_TOKEN_ENV];
  if (adminToken !== undefined && !/^[\x21-\x7e]{8,256}$/.test(adminToken)) {
    throw new KitError('USAGE', `petstore-kit mock: --admin-token (or ${ADMIN_TOKEN_ENV}) takes 8 to 256 visible ASCII characters, as it travels in a header; the one given is not.`);
  }

  return {
    ...(port !== undefined ? { port } : {}),
    ...(host !== undefined ? { host } : {}),
    ...(raw.spec !== undefined ? { specPath: raw.spec } : {}),
    ...(raw.fixtures !== undefined ? { fixtures: raw.fixtures } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(pets !== undefined ? { pets } : {}),
    ...(now !== undefined ? { now } : {}),
    ...(basePath !== undefined ? { basePath } : {}),
    ...(corsOrigin !== undefined ? { corsOrigin } : {}),
    ...(validation !== undefined ? { validation } : {}),
    ...(maxSessions !== undefined ? { maxSessions } : {}),
    ...(raw.quiet ? { quiet: true } : {}),
    ...(adminToken !== undefined ? { adminToken } : {}),
    ...(maxConnections !== undefined ? { maxConnections } : {}),
    ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
    ...(raw['admin-open'] ? { adminOpen: true } : {}),
  };
}

export async function runMockCommand(argv: readonly string[]): Promise<number> {
  const options = mockOptionsFrom(argv);
  // Loaded once the flags are known to be right: a usage error should not wait for the contract and Ajv.
  const { startMock } = await import('./server.js');
  const mock = await startMock(options);
  process.stdout.write(`listening on ${mock.url}\n`);

  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      void mock.close().then(resolve, resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  return 0;
}
