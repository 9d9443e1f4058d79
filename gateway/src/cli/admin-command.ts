import type { OidcArtefactStore } from '../oidc/account-revocation.js';
import type { Store } from '../store/store.js';

/** One option of an admin command: what `parseArgs` needs, plus what the usage shows and the dispatcher checks. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** The option may be given more than once (values are collected into a list). */
  multiple?: boolean;
  /** Placeholder of the value in the usage text (string options), e.g. `U` in `--username U`. */
  value?: string;
  /** The dispatcher refuses the command without a non-blank value, before the command runs. */
  required?: boolean;
}

/** The options of one command, in the order the usage lists them. */
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

type ValueOf<S extends OptionSpec> = S['type'] extends 'boolean'
  ? boolean
  : S['multiple'] extends true
    ? string[]
    : string;

type RequiredKeys<O extends OptionSpecs> = {
  [K in keyof O]: O[K]['required'] extends true ? K : never;
}[keyof O];

/** The parsed values a command receives: required options are present, the others may be missing. */
export type OptionValues<O extends OptionSpecs> = { [K in RequiredKeys<O>]: ValueOf<O[K]> } & {
  [K in Exclude<keyof O, RequiredKeys<O>>]?: ValueOf<O[K]>;
};

/** What a command works with. */
export interface AdminContext {
  store: Store;
  /** Receives the lines the operator sees, one at a time. */
  out: (line: string) => void;
  /** Where the OIDC provider keeps its artefacts: the store's table, or Redis when REDIS_URL is set. */
  oidc: OidcArtefactStore;
  /** PUBLIC_URL (as the server has it): the origin of links the CLI prints (`ott issue`). */
  publicUrl: string;
}

/** Values as parsed from the command line, before the command's own option types apply. */
export type ParsedValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** One admin command, `admin <area> <name> [options]` (`admin <area> [options]` when `name` is empty). */
export interface AdminCommandSpec<O extends OptionSpecs> {
  area: string;
  name: string;
  options: O;
  /** Lines under the command's synopsis in the usage: what it does, when that is not obvious from its name. */
  summary?: string[];
  /** The command ends OIDC artefacts, which live in Redis when REDIS_URL is set: open it for this command. */
  needsRedis?: boolean;
  /** One required positional argument after the command (e.g. `customers import FILE.csv`): its name in the usage. */
  argument?: string;
  /** `argument` is the positional argument's value when the command declares one (the dispatcher requires it). */
  run(ctx: AdminContext, values: OptionValues<O>, argument: string): Promise<void>;
}

/** A command as the command table holds it: run with the values parsed from its own options. */
export interface AdminCommand extends Omit<AdminCommandSpec<OptionSpecs>, 'run'> {
  run(ctx: AdminContext, values: ParsedValues, argument: string): Promise<void>;
}

/** Declares a command, checking `run`'s use of the values against the declared options. */
export function defineCommand<const O extends OptionSpecs>(command: AdminCommandSpec<O>): AdminCommand {
  // Methods are compared bivariantly, so this widening type-checks; it is sound because the dispatcher hands `run`
  // only values parsed from these very options, with the required ones checked.
  return command;
}
