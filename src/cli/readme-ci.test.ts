/**
 * The CI jobs of docs/ci.md and .ci/example-job.sh (which runs that job locally,
 * against the mock) must not drift apart: the job's commands (install the kit,
 * start the mock, wait for it, run the suite) appear in the script as the
 * README gives them. Issue 23, point 1: the install is the README's own, from
 * the kit's repository at a pinned commit, never the unpublished registry name.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../package-info.js';
import { COMMANDS } from './options.js';

const readme = readFileSync(join(PACKAGE_ROOT, 'docs', 'ci.md'), 'utf8');
const script = readFileSync(join(PACKAGE_ROOT, '.ci', 'example-job.sh'), 'utf8');

/** A shell command as words, continuation lines joined and indentation dropped. */
function words(text: string): string {
  return text.replace(/\\\n/g, ' ').replace(/\s+/g, ' ').trim();
}

/** The `npx petstore-kit conformance …` command of a text, continuation lines included. */
function conformanceCommand(text: string): string {
  const start = text.indexOf('npx petstore-kit conformance --base-url "$BASE_URL"');
  expect(start, 'no conformance command').toBeGreaterThanOrEqual(0);
  const lines: string[] = [];
  for (const line of text.slice(start).split('\n')) {
    lines.push(line);
    if (!line.trimEnd().endsWith('\\')) break;
  }
  return words(lines.join('\n')).replace(/ \|\| status=\$\?$/, '');
}

describe("the README's CI job and .ci/example-job.sh", () => {
  const github = readme.slice(readme.indexOf('GitHub Actions ('), readme.indexOf('GitLab CI ('));

  it('run the same conformance command', () => {
    expect(conformanceCommand(script)).toBe(conformanceCommand(github));
  });

  it('start the mock and wait for it the same way', () => {
    expect(words(script)).toContain('npx petstore-kit mock --port "$PORT" --quiet > mock.log 2>&1 &');
    expect(github).toContain('npx petstore-kit mock --port 4010 --quiet > mock.log 2>&1 &');
    for (const text of [github, script]) expect(text).toContain('curl -fsS -o /dev/null "$BASE_URL/store/inventory?limit=1"');
  });

  it('install the kit the same way, word for word: built from its repository at the pinned KIT_REF', () => {
    const gitlab = readme.slice(readme.indexOf('GitLab CI ('));
    const step = github.slice(github.indexOf('- name: Install petstore-kit'), github.indexOf('- name: Start the mock'));
    const commands = step.split('\n').slice(2).map((line) => line.trim()).filter(Boolean);
    expect(commands).toEqual([
      'git clone --quiet "$KIT_REPO" kit && git -C kit checkout --quiet "$KIT_REF"',
      '(cd kit && npm ci --ignore-scripts --no-audit --no-fund && npm pack --silent --pack-destination ..)',
      'npm install --no-save --no-audit --no-fund ./petstore-kit-*.tgz',
    ]);
    for (const command of commands) {
      expect(script.split('\n'), command).toContain(command);
      expect(gitlab.split('\n'), command).toContain(`    - ${command}`);
    }
    for (const recipe of [github, gitlab]) expect(recipe).toMatch(/KIT_REF: [0-9a-f]{40}\n/);
  });

  it('never install the registry name, which is not ours yet, and the README says so plainly', () => {
    const ci = readme;
    expect(ci).toContain('**petstore-kit is not published on the npm registry yet.**');
    for (const text of [ci, script]) expect(text).not.toMatch(/npm (install|i|add)\b[^\n]*\spetstore-kit(@\S*)?\s*$/m);
  });

  it('the sharded jobs use only flags the kit has, and merge what they shard', () => {
    const sharded = readme.slice(readme.indexOf('## Split a long run across machines'));
    const conformance = new Set(Object.keys(COMMANDS.conformance.options));
    const merge = new Set(Object.keys(COMMANDS['merge-reports'].options));
    const lines = sharded.replace(/\\\n\s*/g, ' ').split('\n').filter((line) => line.includes('npx petstore-kit'));
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const line of lines) {
      const flags = new Set(line.includes('merge-reports') ? merge : conformance);
      for (const flag of line.match(/ --[a-z-]+/g) ?? []) expect(flags, `${flag} in ${line.trim()}`).toContain(flag.trim().slice(2));
      if (line.includes('merge-reports')) expect(line).toContain('reports/shard-*.json');
      else expect(line).toMatch(/--shard .+\/\S+ .*--format json --output "?reports\/shard-/);
    }
  });

  it('use only flags the kit has', () => {
    const flags = new Set(Object.keys(COMMANDS.conformance.options));
    for (const flag of conformanceCommand(github).match(/--[a-z-]+/g) ?? []) expect(flags, flag).toContain(flag.slice(2));
  });
});
