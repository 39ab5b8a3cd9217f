import { describe, expect, it } from 'vitest';
import { KitError } from '../kit-error.js';
import { commandHelp, mainHelp } from './help.js';
import { COMMANDS } from './options.js';
import { choiceOption, integerOption, parseCommand } from './parse.js';

describe('the command line', () => {
  it('lists every command and every option of the one options table in --help', () => {
    const help = mainHelp();
    for (const [name, command] of Object.entries(COMMANDS)) {
      expect(help).toContain(`petstore-kit ${name}`);
      for (const flag of Object.keys(command.options)) expect(help).toContain(`--${flag}`);
    }
  });

  it('shows defaults from the table', () => {
    expect(commandHelp('mock')).toMatch(/--port N\s+.*\(default: 4010\)/);
  });

  it('parses repeatable flags and defaults', () => {
    const options = parseCommand('conformance', ['--base-url', 'http://127.0.0.1:1', '--header', 'A: 1', '--header', 'B: 2']);
    expect(options['header']).toEqual(['A: 1', 'B: 2']);
    expect(options['format']).toBe('console');
  });

  it.each([
    [['--bogus'], /Unknown option '--bogus'/],
    [['stray'], /unexpected argument 'stray'/],
  ])('rejects %j as a USAGE error', (argv, message) => {
    expect(() => parseCommand('mock', argv)).toThrow(message);
    try {
      parseCommand('mock', argv);
    } catch (error) {
      expect((error as KitError).code).toBe('USAGE');
    }
  });

  it('checks numbers and choices, naming the flag', () => {
    expect(integerOption('mock', 'port', '8080', 0, 65535)).toBe(8080);
    expect(() => integerOption('mock', 'port', '70000', 0, 65535)).toThrow(/--port takes a whole number from 0 to 65535/);
    expect(() => integerOption('mock', 'port', '12abc', 0, 65535)).toThrow(/got '12abc'/);
    expect(choiceOption('conformance', 'format', 'junit', ['console', 'json', 'junit', 'html'])).toBe('junit');
    expect(() => choiceOption('conformance', 'format', 'xml', ['console', 'json'])).toThrow(/one of console, json/);
  });
});
