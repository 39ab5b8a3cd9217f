/**
 * `petstore-kit mock`: flags (from the one options table, src/cli/options.ts)
 * → MockOptions → startMock. Prints exactly one line on stdout once serving,
 * `listening on http://HOST:PORT[/BASE-PATH] (docs: …)`, so scripts can wait for it and read the
 * port; request logs go to stderr. SIGINT and SIGTERM close it gracefully and
 * the command resolves with 0.
 */
import { choiceOption, generationBudgetOption, integerOption, parseCommand } from '../../src/cli/parse.js';
import { KitError } from '../../src/kit-error.js';
import { ADMIN_TOKEN_ENV } from '../admin/access.js';
import { parseRfc3339 } from '../conveniences/clock.js';
import { isValidOriginSetting } from './cors.js';
import type { MockOptions } from './server.js';
import { normalizeBasePath, VALIDATION_MODES } from './settings.js';

/** Generous for a demo, bounded so a typo (an extra 0) fails clearly instead of exhausting memory. */
const MAX_PETS = 5_000_000;
/** Sessions are cheap until they write (copy-on-write), but each name is client input: bounded all the same. */
const MAX_SESSIONS = 10_000;
/** 1 TiB in MiB: any real budget fits; a typo with extra digits does not overflow. */
const MAX_SESSION_MEMORY_MIB = 1024 * 1024;
/** Each connection is a file descriptor; the kernel's own limit is rarely above this. */
const MAX_CONNECTIONS = 1_000_000;

export function mockOptionsFrom(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): MockOptions {
  const raw = parseCommand('mock', argv);
  const port = integerOption('mock', 'port', raw.port, 0, 65535);
  const seed = integerOption('mock', 'seed', raw.seed, 0, Number.MAX_SAFE_INTEGER);
  const pets = integerOption('mock', 'pets', raw.pets, 0, MAX_PETS);
  const validation = choiceOption('mock', 'validation', raw.validation, VALIDATION_MODES);
  const maxSessions = integerOption('mock', 'max-sessions', raw['max-sessions'], 1, MAX_SESSIONS);
  const maxSessionMemoryMiB = integerOption('mock', 'max-session-memory', raw['max-session-memory'], 1, MAX_SESSION_MEMORY_MIB);
  const maxConnections = integerOption('mock', 'max-connections', raw['max-connections'], 1, MAX_CONNECTIONS);
  // At least a second; more than the longest Prefer: delay (10 s) unless delayed answers may be cut.
  const idleTimeoutMs = integerOption('mock', 'idle-timeout', raw['idle-timeout'], 1000, 3_600_000);

  const chaosRate = raw.chaos === undefined ? undefined : chaosRateOf(raw.chaos);
  // With --chaos, --seed also seeds the failures; beside --fixtures it seeds only them.
  const dataSeed = chaosRate !== undefined && raw.fixtures !== undefined ? undefined : seed;
  if (dataSeed !== undefined && raw.fixtures !== undefined && raw.fixtures !== 'none') {
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
  const generationBudget = raw['generation-budget'] === undefined ? undefined : generationBudgetOption('mock', raw['generation-budget']);
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
    ...(raw['allow-refs'] !== undefined ? { allowRefs: raw['allow-refs'] } : {}),
    ...(raw.strict === true ? { strictSchema: true } : {}),
    ...(raw.fixtures !== undefined ? { fixtures: raw.fixtures } : {}),
    ...(raw['mock-overlay'] !== undefined ? { mockOverlay: raw['mock-overlay'] } : {}),
    ...(raw['behaviour'] !== undefined ? { behaviour: raw['behaviour'] } : {}),
    ...(generationBudget !== undefined ? { generationBudget } : {}),
    ...(dataSeed !== undefined ? { seed: dataSeed } : {}),
    ...(pets !== undefined ? { pets } : {}),
    ...(now !== undefined ? { now } : {}),
    ...(basePath !== undefined ? { basePath } : {}),
    ...(corsOrigin !== undefined ? { corsOrigin } : {}),
    ...(validation !== undefined ? { validation } : {}),
    ...(maxSessions !== undefined ? { maxSessions } : {}),
    ...(maxSessionMemoryMiB !== undefined ? { maxSessionMemory: maxSessionMemoryMiB * 1024 * 1024 } : {}),
    ...(raw.quiet ? { quiet: true } : {}),
    ...(raw.watch ? { watch: true } : {}),
    ...(chaosRate !== undefined ? { chaos: { rate: chaosRate, seed: seed ?? Math.floor(Math.random() * 2 ** 31) } } : {}),
    ...(adminToken !== undefined ? { adminToken } : {}),
    ...(maxConnections !== undefined ? { maxConnections } : {}),
    ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
    ...(raw['admin-open'] ? { adminOpen: true } : {}),
  };
}

/** A share of requests, 0 to 1 (`0.1` is one request in ten). */
function chaosRateOf(text: string): number {
  const rate = /^(0|1|0?\.[0-9]+|1\.0*)$/.test(text) ? Number(text) : Number.NaN;
  if (!(rate >= 0 && rate <= 1)) throw new KitError('USAGE', `petstore-kit mock: --chaos takes the share of requests to fail, from 0 to 1 (e.g. 0.1); got '${text}'.`);
  return rate;
}

export async function runMockCommand(argv: readonly string[]): Promise<number> {
  const options = mockOptionsFrom(argv);
  // Loaded once the flags are known to be right: a usage error should not wait for the contract and Ajv.
  const { startMock } = await import('./server.js');
  const mock = await startMock(options);
  // The URL of the API itself, base path included, so a script can hand it straight to a client or the runner.
  process.stdout.write(`listening on ${mock.url}${mock.app.basePath} (docs: ${mock.url}/__mock/docs)\n`);
  if (options.chaos) process.stderr.write(`chaos: ${options.chaos.rate} of the requests fail with a documented error or a fault; --seed ${options.chaos.seed} replays these failures\n`);

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
