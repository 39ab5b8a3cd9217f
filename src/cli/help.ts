import { KIT_VERSION } from '../package-info.js';
import { COMMANDS, type CommandName, type CommandSpec } from './options.js';

export function mainHelp(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = [
    `petstore-kit ${KIT_VERSION}: a stateful mock and a conformance test kit, both derived from one OpenAPI document`,
    '',
    'Usage: petstore-kit <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(width)}  ${command.summary}`),
    '',
    ...Object.keys(COMMANDS).flatMap((name) => [commandHelp(name as CommandName), '']),
    'Run `petstore-kit <command> --help` for one command.',
  ];
  return lines.join('\n');
}

export function commandHelp(name: CommandName): string {
  const command: CommandSpec = COMMANDS[name];
  const rows = Object.entries(command.options).map(([flag, option]) => {
    const short = option.short ? `-${option.short}, ` : '    ';
    const left = `${short}--${flag}${option.placeholder ? ` ${option.placeholder}` : ''}`;
    const suffix = option.default !== undefined && option.default !== '' ? ` (default: ${option.default})` : '';
    return [left, `${option.description}${suffix}`] as const;
  });
  if (command.operands) rows.unshift([`    ${command.operands.placeholder}`, command.operands.description]);
  const width = Math.max(...rows.map(([left]) => left.length));
  return [`${command.usage}`, `  ${command.summary}`, ...rows.map(([left, right]) => `    ${left.padEnd(width)}  ${right}`)].join('\n');
}
