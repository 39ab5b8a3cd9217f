/**
 * Issue 23, point 5: no install-time script or telemetry in the dependency tree. Read from package-lock.json,
 * which is what `npm ci` installs: a package there with `hasInstallScript` runs code at install time (on npm 10,
 * which Node 20 ships, without asking).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-info.js';

interface LockedPackage {
  readonly dev?: boolean;
  readonly hasInstallScript?: boolean;
  readonly link?: boolean;
  readonly resolved?: string;
}
interface Manifest {
  readonly scripts: Record<string, string>;
  readonly dependencies: Record<string, string>;
  readonly overrides?: Record<string, string>;
  readonly allowScripts?: Record<string, boolean>;
}

const lock = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> };
const manifest = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as Manifest;
const installed = Object.entries(lock.packages).filter(([path]) => path.startsWith('node_modules/') || path.includes('/node_modules/'));
const withScripts = installed.filter(([, p]) => p.hasInstallScript === true).map(([path]) => path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length));

describe('install-time scripts', () => {
  it('no dependency a user of the package installs has one', () => {
    const runtime = installed.filter(([, p]) => p.dev !== true && p.hasInstallScript === true).map(([path]) => path);
    expect(runtime).toEqual([]);
  });

  it('the only ones in the development tree are esbuild and msw (dev-only, not needed, denied in allowScripts)', () => {
    expect(withScripts.sort()).toEqual(['esbuild', 'msw']);
    expect(manifest.allowScripts).toEqual({ esbuild: false, msw: false });
  });

  it('@scarf/scarf (install-time telemetry of swagger-ui-dist and Spectral) is the empty stand-in, everywhere', () => {
    // Every override, each with its reason: the stand-in below, and the bench's fastify baseline held to a
    // light-my-request whose cookie parser allows Node 20 (bench/README.md, issue 34).
    expect(manifest.overrides).toEqual({ '@scarf/scarf': '$@scarf/scarf', fastify: { 'light-my-request': '6.6.0' } });
    const scarf = installed.filter(([path]) => path.endsWith('node_modules/@scarf/scarf'));
    expect(scarf).toEqual([['node_modules/@scarf/scarf', { resolved: 'bin/dev/no-scarf', link: true }]]);
    const stub = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'bin', 'dev', 'no-scarf', 'package.json'), 'utf8')) as { scripts?: unknown; main?: unknown };
    expect(stub.scripts).toBeUndefined();
    expect(stub.main).toBeUndefined();
  });

  it('the package builds on pack, not on install (no `prepare`, `install` or `postinstall` of its own)', () => {
    for (const name of ['prepare', 'preinstall', 'install', 'postinstall']) expect(manifest.scripts, name).not.toHaveProperty([name]);
    expect(manifest.scripts['prepack']).toBe('npm run build');
    expect(manifest.dependencies).not.toHaveProperty(['swagger-ui-dist']);
  });
});
