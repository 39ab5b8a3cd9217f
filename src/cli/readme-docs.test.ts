/**
 * The README is the front door and docs/ holds the reference (issue 33, point 5): every relative link of either
 * must lead somewhere (a file that exists, a heading that exists), every `petstore-kit` command they show must be
 * one the kit accepts (parsed by the same options table the command line uses), every npm script they name must
 * exist, and the README's first-success commands must do what their comments say against a real mock.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { buildIfStale, BIN, killChildren, startChildMock, type ChildMock } from '../../mock/test-support/child-mock.js';
import { createContractClient, type ContractClient } from '../../mock/test-support/contract-client.js';
import { PACKAGE_ROOT } from '../package-info.js';
import { bundledContract } from '../test-support.js';
import { COMMANDS, isCommandName } from './options.js';
import { parseCommandLine } from './parse.js';

const README = join(PACKAGE_ROOT, 'README.md');
const DOCS = join(PACKAGE_ROOT, 'docs');
const PAGES = [README, ...readdirSync(DOCS).filter((name) => name.endsWith('.md')).map((name) => join(DOCS, name)), join(PACKAGE_ROOT, 'bench', 'README.md')];

/** The text of a page outside its fenced code blocks (links in code are not links). */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped but `-` and `_`, spaces as `-`. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  for (const match of prose(readFileSync(file, 'utf8')).matchAll(/^#{1,6} (.+)$/gm)) anchors.add(slug(match[1]!));
  return anchors;
}

/** The shell commands of a page's ```sh blocks, continuation lines joined, comments dropped. */
function shellCommands(text: string): string[] {
  const commands: string[] = [];
  for (const block of text.matchAll(/^```sh\n([\s\S]*?)^```/gm)) {
    const joined = block[1]!.replace(/\\\n\s*/g, ' ');
    for (const line of joined.split('\n')) {
      const command = line.replace(/\s+#.*$/, '').trim();
      if (command && !command.startsWith('#')) commands.push(command);
    }
  }
  return commands;
}

/** A command line as its words, as a POSIX shell splits them (single and double quotes; no expansion). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: '"' | "'" | undefined;
  let inWord = false;
  for (const char of line) {
    if (quote) {
      if (char === quote) quote = undefined;
      else word += char;
    } else if (char === '"' || char === "'") {
      quote = char;
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

describe('the README and docs/', () => {
  it('every relative link leads to a file, and every anchor to a heading, that exist', () => {
    const broken: string[] = [];
    let links = 0;
    for (const page of PAGES) {
      for (const match of prose(readFileSync(page, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
        const target = match[1]!;
        if (/^[a-z]+:/i.test(target)) continue;
        links++;
        const [path, anchor] = target.split('#') as [string, string | undefined];
        const file = path === '' ? page : resolve(dirname(page), path);
        const where = `${relative(PACKAGE_ROOT, page)}: ${target}`;
        if (!existsSync(file)) broken.push(`${where} (no such file)`);
        else if (anchor !== undefined && statSync(file).isFile() && !anchorsOf(file).has(anchor)) broken.push(`${where} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
    expect(links).toBeGreaterThan(20);
  });

  it('the README stays an overview: under 250 lines, linking every page of docs/', () => {
    const readme = readFileSync(README, 'utf8');
    expect(readme.split('\n').length).toBeLessThan(250);
    for (const name of readdirSync(DOCS).filter((file) => file.endsWith('.md'))) expect(readme, name).toContain(`](docs/${name}`);
  });

  it('every petstore-kit command shown is one the kit accepts, flag by flag', () => {
    let shown = 0;
    for (const page of PAGES) {
      for (const command of shellCommands(readFileSync(page, 'utf8'))) {
        const words = shellWords(command);
        const at = words.findIndex((word) => word === 'petstore-kit' || word.endsWith('/petstore-kit.js'));
        if (at === -1) continue;
        const [name, ...args] = words.slice(at + 1);
        // A synopsis (`[--port 4010]`, `…`) shows the flags' shape, not a command to run.
        if (args.some((arg) => arg.startsWith('[') || arg === '…' || arg === '|')) continue;
        if (name === undefined || name === '--help' || name === '--version') continue;
        shown++;
        expect(isCommandName(name), `${relative(PACKAGE_ROOT, page)}: ${command}`).toBe(true);
        if (!isCommandName(name)) continue;
        const { operands } = parseCommandLine(name, args.filter((arg) => arg !== '>' && !arg.startsWith('>')));
        // Only a command that takes words besides its flags (merge-reports' files) may be shown with some.
        expect(operands.length === 0 || 'operands' in COMMANDS[name], command).toBe(true);
      }
    }
    expect(shown).toBeGreaterThan(5);
  });

  it('every npm script named exists in package.json', () => {
    const scripts = Object.keys((JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts);
    const named = new Set<string>();
    for (const page of PAGES) for (const match of readFileSync(page, 'utf8').matchAll(/\bnpm (?:run (?:--silent )?([a-z:-]+)|(test|start)\b)/g)) named.add(match[1] ?? match[2]!);
    expect([...named].filter((name) => !scripts.includes(name))).toEqual([]);
    expect(named).toContain('test:all');
  });

  it('a code block headed by a file of the kit (`# fixtures/rules/petstore.rules.yaml`) shows that file as it is, its comments aside', () => {
    const stale: string[] = [];
    let shown = 0;
    for (const page of PAGES) {
      for (const match of readFileSync(page, 'utf8').matchAll(/^```[a-z]*\n# ([\w./-]+)\n([\s\S]*?)^```/gm)) {
        const file = join(PACKAGE_ROOT, match[1]!);
        if (!existsSync(file) || !statSync(file).isFile()) continue;
        shown += 1;
        const uncommented = (text: string): string => text.split('\n').filter((line) => !line.trim().startsWith('#')).join('\n').trim();
        if (uncommented(readFileSync(file, 'utf8')) !== uncommented(match[2]!)) stale.push(`${relative(PACKAGE_ROOT, page)} shows an old ${match[1]}`);
      }
    }
    expect(stale).toEqual([]);
    // The rule file's worked example is one of them (docs/rules.md); it had fallen behind the file once.
    expect(shown).toBeGreaterThan(0);
  });
});

describe("the README's excerpt of the Pet Store's rule file", () => {
  /** Whether every member `part` gives is in `whole` with the same value (arrays: item by item). */
  const within = (part: unknown, whole: unknown): boolean => {
    if (typeof part !== 'object' || part === null) return part === whole;
    if (typeof whole !== 'object' || whole === null) return false;
    return Object.entries(part).every(([key, value]) => within(value, (whole as Record<string, unknown>)[key]));
  };

  it('shows rules the file states: each entry, in its words, is part of an entry of the same path and word', () => {
    const block = /^```yaml\n( {2}\/store\/orders:[\s\S]*?)^```/m.exec(readFileSync(README, 'utf8'));
    expect(block, 'the README shows the orders of fixtures/rules/petstore.rules.yaml').not.toBeNull();
    const shown = parseYaml(`paths:\n${block![1]!}`) as { paths: Record<string, Record<string, unknown[]>> };
    const file = parseYaml(readFileSync(join(PACKAGE_ROOT, 'fixtures', 'rules', 'petstore.rules.yaml'), 'utf8')) as { paths: Record<string, Record<string, unknown[]>> };
    const missing: string[] = [];
    let entries = 0;
    for (const [path, words] of Object.entries(shown.paths)) {
      for (const [word, list] of Object.entries(words)) {
        for (const entry of list) {
          entries += 1;
          if (!(file.paths[path]?.[word] ?? []).some((stated) => within(entry, stated))) missing.push(`${path} ${word}: ${JSON.stringify(entry)}`);
        }
      }
    }
    expect(missing).toEqual([]);
    expect(entries).toBeGreaterThanOrEqual(4);
  });
});

describe("the README's first-success commands, against a real mock", () => {
  let mock: ChildMock;
  let client: ContractClient;

  beforeAll(async () => {
    buildIfStale();
    mock = await startChildMock(['--port', '0', '--quiet']);
    client = createContractClient({ origin: mock.url, compiled: (await bundledContract()).compiled });
  });
  afterAll(async () => {
    await client?.close();
    killChildren();
  });

  it('each curl of the Pet Store session answers the status its comment names, within the contract', async () => {
    const readme = readFileSync(README, 'utf8');
    const block = readme.slice(readme.indexOf('### A front-end developer, with the Pet Store'));
    const lines = /```sh\n([\s\S]*?)```/.exec(block)![1]!.replace(/\\\n\s*/g, ' ').split('\n');
    let sent = 0;
    for (const line of lines.filter((text) => text.trim().startsWith('curl '))) {
      const [command, comment = ''] = line.split(/\s+#\s*/, 2) as [string, string?];
      const words = shellWords(command);
      const method = words.includes('-X') ? words[words.indexOf('-X') + 1]! : 'GET';
      const url = new URL(words.find((word) => word.startsWith('http://'))!);
      const body = words.includes('-d') ? words[words.indexOf('-d') + 1] : undefined;
      const answer = await client.send(method, `${url.pathname}${url.search}`, body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } });
      sent++;
      const status = /^(\d{3})\b/.exec(comment)?.[1];
      if (status) expect(answer.status, line).toBe(Number(status));
      else expect(answer.status, line).toBeLessThan(300);
      const code = /\b([A-Z][A-Z_]{3,})\b/.exec(comment)?.[1];
      if (code) expect((answer.body as { code?: string }).code, line).toBe(code);
    }
    expect(sent).toBe(3);
  });

  it('`conformance --explain` and `--list-checks` as shown run and exit 0', async () => {
    for (const args of [['conformance', '--explain', 'create-read-back'], ['conformance', '--list-checks']]) {
      const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((done) => {
        const child = spawn(process.execPath, [BIN, ...args], { cwd: PACKAGE_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.once('exit', (exit) => done({ code: exit, stdout: out }));
      });
      expect(code, args.join(' ')).toBe(0);
      expect(stdout).toContain('create-read-back');
    }
  });
});
