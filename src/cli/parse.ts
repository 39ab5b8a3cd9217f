import { parseArgs } from 'node:util';
import { parseGenerationBudget, type GenerationBudget } from '../generate/index.js';
import { KitError } from '../kit-error.js';
import { COMMANDS, type CommandName } from './options.js';

type Spec<C extends CommandName> = (typeof COMMANDS)[C]['options'];
type ValueOf<O> = O extends { type: 'boolean' } ? boolean | undefined : O extends { multiple: true } ? string[] | undefined : string | undefined;

/** The raw flag values of one command, typed from the options table. */
export type RawOptions<C extends CommandName> = { -readonly [K in keyof Spec<C>]: ValueOf<Spec<C>[K]> };

/** Parses argv for one command with the table's flags; an unknown flag or a stray argument is a USAGE error. */
export function parseCommand<C extends CommandName>(command: C, argv: readonly string[]): RawOptions<C> {
  const { values, operands } = parseCommandLine(command, argv);
  if (operands.length > 0) throw new KitError('USAGE', `petstore-kit ${command}: unexpected argument '${operands[0]}'. See petstore-kit ${command} --help.`);
  return values;
}

/** Parses argv with the table's flags, and the words besides them for a command that takes some (its `operands`). */
export function parseCommandLine<C extends CommandName>(command: C, argv: readonly string[]): { values: RawOptions<C>; operands: string[] } {
  const options = Object.fromEntries(
    Object.entries(COMMANDS[command].options).map(([name, option]) => [
      name,
      { type: option.type, ...('short' in option ? { short: option.short } : {}), ...('multiple' in option ? { multiple: option.multiple } : {}), ...('default' in option ? { default: option.default } : {}) },
    ]),
  );
  try {
    const { values, positionals } = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
    return { values: values as RawOptions<C>, operands: positionals };
  } catch (error) {
    if (error instanceof KitError) throw error;
    throw new KitError('USAGE', `petstore-kit ${command}: ${(error as Error).message}. See petstore-kit ${command} --help.`);
  }
}

/** An integer flag within bounds, or a USAGE error that says which flag and what it takes. */
export function integerOption(command: CommandName, flag: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^-?[0-9]+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new KitError('USAGE', `petstore-kit ${command}: --${flag} takes a whole number from ${min} to ${max}; got '${value}'.`);
  }
  return Number(value);
}

/** One of a fixed set of words, or a USAGE error listing them. */
export function choiceOption<T extends string>(command: CommandName, flag: string, value: string | undefined, choices: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) {
    throw new KitError('USAGE', `petstore-kit ${command}: --${flag} takes one of ${choices.join(', ')}; got '${value}'.`);
  }
  return value as T;
}

/** `--generation-budget CAP=N` (repeatable, comma-separated): the budget with those caps, or a USAGE error naming them. */
export function generationBudgetOption(command: CommandName, values: readonly string[]): GenerationBudget {
  const parsed = parseGenerationBudget(values);
  if (!parsed.ok) throw new KitError('USAGE', `petstore-kit ${command}: ${parsed.message}.`);
  return parsed.budget;
}
