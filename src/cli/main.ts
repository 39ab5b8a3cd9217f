import { isKitError } from '../kit-error.js';
import { KIT_VERSION } from '../package-info.js';
import { commandHelp, mainHelp } from './help.js';
import { COMMANDS, isCommandName } from './options.js';

/** Runs the command line and resolves to the process exit code: 0 passed, 1 findings, 2 could not run. */
export async function main(argv: readonly string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(`${mainHelp()}\n`);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${KIT_VERSION}\n`);
    return 0;
  }
  if (!isCommandName(name)) {
    process.stderr.write(`petstore-kit: unknown command '${name}'. Commands: ${Object.keys(COMMANDS).join(', ')}. See petstore-kit --help.\n`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(`${commandHelp(name)}\n`);
    return 0;
  }
  try {
    if (name === 'mock') return await (await import('../../mock/transport/cli.js')).runMockCommand(rest);
    if (name === 'merge-reports') return await (await import('../../conformance/merge-cli.js')).runMergeReportsCommand(rest);
    if (name === 'proxy') return await (await import('../../conformance/proxy/cli.js')).runProxyCommand(rest);
    return await (await import('../../conformance/cli.js')).runConformanceCommand(rest);
  } catch (error) {
    if (isKitError(error)) {
      process.stderr.write(`petstore-kit ${name}: ${error.code}: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}
