/**
 * The one table of commands and options. Parsing (node:util parseArgs) and
 * `--help` are both derived from it, so the help can never drift from the
 * flags (openapi-typescript's bin/cli.js does the same).
 */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly placeholder?: string;
  readonly description: string;
  readonly default?: string;
  readonly multiple?: boolean;
  readonly short?: string;
}

export interface CommandSpec {
  readonly summary: string;
  readonly usage: string;
  /** The words a command takes besides its flags (`merge-reports FILE...`), as the help shows them; none when absent. */
  readonly operands?: { readonly placeholder: string; readonly description: string };
  readonly options: Readonly<Record<string, OptionSpec>>;
}

const spec: OptionSpec = { type: 'string', placeholder: 'FILE', description: 'the OpenAPI 3.0 or 3.1 document (default: the bundled openapi.yaml)' };
const strict = {
  type: 'boolean',
  description: 'refuse a document that breaks the OpenAPI schema even where that changes nothing it describes (an extra keyword, a $ref to a Markdown file in a description); by default such a document loads with a warning naming each spot',
} as const satisfies OptionSpec;
const generationBudget = {
  type: 'string',
  placeholder: 'CAP=N',
  multiple: true,
  description:
    'caps on one generated value: string=10000 (characters), items=1000 (array items), depth=32, nodes=10000 (values), bytes=1048576; repeatable or comma-separated; what a schema asks past them is reported, not generated (docs/generation.md)',
} as const satisfies OptionSpec;
const allowRefs = {
  type: 'string',
  placeholder: 'DIR|URL',
  multiple: true,
  description: "let the document's $refs also read YAML/JSON files under DIR, or an https:// URL prefix (repeatable); by default only its own folder and the working directory",
} as const satisfies OptionSpec;

export const COMMANDS = {
  mock: {
    summary: 'Serve a stateful in-memory mock of the API described by the document.',
    usage: 'petstore-kit mock [options]',
    options: {
      port: { type: 'string', placeholder: 'N', default: '4010', description: 'port to listen on; 0 picks a free one (printed)' },
      host: { type: 'string', placeholder: 'HOST', default: '127.0.0.1', description: 'interface to bind; the default keeps the mock off the network' },
      spec,
      'allow-refs': allowRefs,
      strict,
      fixtures: { type: 'string', placeholder: 'DIR|none', description: 'seed data folder (default: the bundled fixtures/seed); none starts empty' },
      seed: { type: 'string', placeholder: 'N', description: 'generate data with faker from this seed (same seed, same data)' },
      'generation-budget': generationBudget,
      'mock-overlay': { type: 'string', placeholder: 'FILE', description: 'corrections to the inferred resources (x-mock-id, x-mock-collection, x-mock-stateless; docs/any-document.md) and rules (x-mock-unique, x-mock-references, x-mock-states, x-mock-effects; docs/rules.md); the Pet Store: fixtures/rules/petstore.rules.yaml by default' },
      behaviour: { type: 'string', placeholder: 'FILE', description: 'a module of hooks run before and after each operation, reloaded by --watch (docs/rules.md)' },
      pets: { type: 'string', placeholder: 'K', default: '20', description: 'with --seed: how many pets to generate' },
      now: { type: 'string', placeholder: 'RFC3339', description: "the mock's clock, e.g. 2027-07-01T00:00:00Z to rehearse getPet's sunset" },
      'base-path': { type: 'string', placeholder: 'PATH', description: "serve under a path prefix, e.g. /api/v1; / for the root (default: the root for the Pet Store, the path of the document's first server for any other)" },
      'cors-origin': { type: 'string', placeholder: 'ORIGIN', default: '*', description: 'the one origin CORS allows, e.g. http://localhost:5173; * allows any' },
      validation: {
        type: 'string',
        placeholder: 'error|strict|warn|off',
        default: 'error',
        description: 'an invalid request gets a 400 (error; strict also refuses undocumented query parameters), or is logged (warn) or ignored (off) as far as it cannot corrupt the data',
      },
      'max-sessions': { type: 'string', placeholder: 'N', default: '100', description: 'X-Mock-Session stores kept at once, each a copy of the initial data; past it the least recently used is dropped' },
      // Front-end rehearsal (issue 13).
      chaos: { type: 'string', placeholder: 'RATE', description: 'fail this share of requests (0..1) with a random documented error or fault; --seed N replays the same failures' },
      watch: { type: 'boolean', description: 'reload openapi.yaml and the fixtures when they change; an invalid document is reported and the previous one keeps serving' },
      'max-session-memory': { type: 'string', placeholder: 'MiB', description: 'memory all X-Mock-Session stores may hold beyond the shared initial data (default: a quarter of the heap limit); past it the least recently used are dropped' },
      quiet: { type: 'boolean', short: 'q', description: 'no log line per request' },
      'admin-token': { type: 'string', placeholder: 'TOKEN', description: 'every /__mock/ call must send it in X-Mock-Admin-Token (also PETSTORE_KIT_ADMIN_TOKEN); never printed' },
      'admin-open': { type: 'boolean', description: 'on a host other than loopback, open /__mock/ without a token (closed by default)' },
      'max-connections': { type: 'string', placeholder: 'N', default: '1000', description: 'connections held at once; past it the oldest idle one is closed, or the new one refused' },
      'idle-timeout': { type: 'string', placeholder: 'MS', default: '30000', description: 'cut a connection when nothing moved for this long during a request (a client that stopped reading)' },
      help: { type: 'boolean', short: 'h', description: 'show this help' },
    },
  },
  conformance: {
    summary: 'Check any implementation of the document against it, over HTTP.',
    usage: 'petstore-kit conformance --base-url URL [options]',
    options: {
      'base-url': { type: 'string', placeholder: 'URL', description: 'the target, with its path prefix if any (required)' },
      spec,
      'allow-refs': allowRefs,
      strict,
      header: { type: 'string', placeholder: "'Name: value'", multiple: true, description: 'send this header with every request (repeatable); values are never printed' },
      format: { type: 'string', placeholder: 'console|json|junit|html|markdown', default: 'console', description: 'report format (markdown: a short summary for a pull-request comment or a CI job summary)' },
      output: { type: 'string', placeholder: 'FILE', description: 'write the report to FILE (the console summary still prints)' },
      'read-only': { type: 'boolean', description: 'send only GET, HEAD and OPTIONS; checks that need writes are skipped' },
      'fail-fast': { type: 'boolean', description: 'stop starting checks after the first failed one, the checks that probe every field started last (what was created is still cleaned up; exit 1)' },
      'no-cleanup': { type: 'boolean', description: 'leave what the run created on the target (listed in the report), for a target thrown away after the run: the clean-up reads back and deletes each record, two requests apiece' },
      only: { type: 'string', placeholder: 'ID', multiple: true, description: 'run only these check ids, check families, operationIds or tags (repeatable, or comma-separated)' },
      skip: { type: 'string', placeholder: 'ID', multiple: true, description: 'skip these check ids, check families, operationIds or tags (repeatable, or comma-separated)' },
      timeout: { type: 'string', placeholder: 'MS', default: '10000', description: 'per-request timeout' },
      concurrency: { type: 'string', placeholder: 'N', default: '4', description: 'requests in flight at most' },
      rate: { type: 'string', placeholder: 'N', default: '0', description: 'requests per second at most (0: no cap)' },
      'max-requests': { type: 'string', placeholder: 'N', default: '20000', description: 'requests the run sends at most; checks past it are reported not run and the run exits 2' },
      'max-body-bytes': { type: 'string', placeholder: 'N', description: "the target's request body limit in bytes, where its document states none: a body one byte over must get the 413, one at the limit is taken" },
      seed: { type: 'string', placeholder: 'N', default: '1', description: 'seed of the generated inputs, for a reproducible run' },
      'generation-budget': generationBudget,
      origin: { type: 'string', placeholder: 'URL', description: 'also check CORS as a browser page on this origin would' },
      'list-checks': { type: 'boolean', description: 'list the checks with their ids and exit' },
      // Issue 10 (reports): hollow runs and check explanations.
      'min-coverage': { type: 'string', placeholder: 'PCT', multiple: true, description: 'fail the run below this share of operations exercised: 80, operations=80, statuses=40 (documented statuses observed), or both' },
      report: { type: 'string', placeholder: 'FORMAT=FILE', multiple: true, description: 'also write the report in FORMAT to FILE, from the same run (repeatable): --report junit=conformance.xml --report html=conformance.html' },
      explain: { type: 'string', placeholder: 'CHECK', description: 'print what a check verifies, why, and what a conformant answer looks like, and exit' },
      // Issue 33, point 6: a run split across machines.
      shard: { type: 'string', placeholder: 'K/N', description: "run only this machine's share of the operations (a resource's operations stay together; the same split on every machine); join the N JSON reports with merge-reports" },
      quiet: { type: 'boolean', short: 'q', description: 'no progress line' },
      help: { type: 'boolean', short: 'h', description: 'show this help' },
    },
  },
  'merge-reports': {
    summary: 'Join the JSON reports of a run split with --shard K/N into the one report a single run would give, with its exit code.',
    usage: 'petstore-kit merge-reports SHARD.json... [options]',
    operands: { placeholder: 'SHARD.json...', description: 'the JSON report of every shard of the run (conformance --shard K/N --format json or --report json=FILE), in any order' },
    options: {
      format: { type: 'string', placeholder: 'console|json|junit|html|markdown', default: 'console', description: 'report format of the merged report' },
      output: { type: 'string', placeholder: 'FILE', description: 'write the merged report to FILE (the console summary still prints)' },
      report: { type: 'string', placeholder: 'FORMAT=FILE', multiple: true, description: 'also write the merged report in FORMAT to FILE (repeatable)' },
      help: { type: 'boolean', short: 'h', description: 'show this help' },
    },
  },
  // Issue 35: the validating proxy (conformance/proxy/, docs/proxy.md). Its flags stay in this one block.
  proxy: {
    summary: 'Forward traffic to a real backend, checking every exchange against the document; report it, record it, and mock what the backend lacks.',
    usage: 'petstore-kit proxy --target URL [options]',
    options: {
      target: { type: 'string', placeholder: 'URL', description: 'the backend, with its path prefix if any: a request for /pets goes to URL/pets (required)' },
      spec,
      'allow-refs': allowRefs,
      port: { type: 'string', placeholder: 'N', default: '4010', description: 'port to listen on; 0 picks a free one (printed)' },
      host: { type: 'string', placeholder: 'HOST', default: '127.0.0.1', description: 'interface to bind; the default keeps the proxy off the network' },
      header: { type: 'string', placeholder: "'Name: value'", multiple: true, description: 'send this header to the target with every request, in place of the client\'s (repeatable); values are never printed nor written' },
      errors: { type: 'boolean', description: "refuse a request that breaks the document (400) and replace an answer that does (502), in the kit's Error shape; without it traffic is never altered" },
      fallback: { type: 'boolean', description: "answer the operations the target lacks (501, or a 404 that is not the operation's own) with the kit's mock, in this process" },
      'fallback-url': { type: 'string', placeholder: 'URL', description: 'answer them with the mock at URL instead (e.g. a running petstore-kit mock)' },
      mock: { type: 'string', placeholder: 'ID', multiple: true, description: 'always answer these operationIds or tags with the mock, never the target (repeatable, or comma-separated)' },
      fixtures: { type: 'string', placeholder: 'DIR|none', description: "the in-process mock's data (default: the bundled seed for the Pet Store, the document's examples otherwise)" },
      record: { type: 'string', placeholder: 'DIR', description: "write what the target answered as fixtures the mock reads (--fixtures DIR), one file per collection, and the session as DIR/session.har" },
      format: { type: 'string', placeholder: 'console|json|junit|html|markdown', default: 'console', description: 'the report printed on exit (also served at GET /__proxy/report?format=…)' },
      output: { type: 'string', placeholder: 'FILE', description: 'write that report to FILE on exit instead of printing it' },
      report: { type: 'string', placeholder: 'FORMAT=FILE', multiple: true, description: 'also write the report in FORMAT to FILE on exit (repeatable): --report junit=proxy.xml --report html=proxy.html' },
      skip: { type: 'string', placeholder: 'ID', multiple: true, description: 'leave out these rule ids or families (request, response, errors, deprecation), repeatable or comma-separated' },
      'min-coverage': { type: 'string', placeholder: 'PCT', multiple: true, description: 'fail (exit 1) when the traffic exercised less than this share of operations: 80, operations=80, statuses=40' },
      timeout: { type: 'string', placeholder: 'MS', default: '30000', description: 'how long the target may take to connect, to start its answer, and between two pieces of it; past it a 504' },
      'max-body-bytes': { type: 'string', placeholder: 'N', description: "bodies larger than this pass through unvalidated, with a note in the report (default: the document's x-max-body-bytes, else 1048576)" },
      quiet: { type: 'boolean', short: 'q', description: 'no log line per exchange (violations and mocked answers still print)' },
      help: { type: 'boolean', short: 'h', description: 'show this help' },
    },
  },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;

export function isCommandName(name: string | undefined): name is CommandName {
  return name !== undefined && Object.hasOwn(COMMANDS, name);
}
