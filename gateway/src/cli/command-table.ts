import type { AdminCommand, OptionSpec } from './admin-command.js';
import { auditCommands } from './commands/audit.js';
import { clientsCommands } from './commands/clients.js';
import { consoleCommands } from './commands/console.js';
import { errorsCommands } from './commands/errors.js';
import { idpsCommands } from './commands/idps.js';
import { customersCommands } from './commands/customers.js';
import { keysCommands } from './commands/keys.js';
import { membershipsCommands } from './commands/memberships.js';
import { outboxCommands } from './commands/outbox.js';
import { ottCommands } from './commands/ott.js';
import { partnersCommands } from './commands/partners.js';
import { sessionsCommands } from './commands/sessions.js';
import { usersCommands } from './commands/users.js';

/** Every admin command, in the order the usage lists them. */
export const ADMIN_COMMANDS: readonly AdminCommand[] = [
  ...usersCommands,
  ...partnersCommands,
  ...customersCommands,
  ...membershipsCommands,
  ...clientsCommands,
  ...idpsCommands,
  ...keysCommands,
  ...sessionsCommands,
  ...consoleCommands,
  ...ottCommands,
  ...outboxCommands,
  ...auditCommands,
  ...errorsCommands,
];

/** How a command is typed on the command line: `users add`, or just `outbox`. */
export function commandName(command: Pick<AdminCommand, 'area' | 'name'>): string {
  return command.name ? `${command.area} ${command.name}` : command.area;
}

/** The command `admin <area> [name]` names, if any. */
export function findCommand(area: string, name: string | undefined): AdminCommand | undefined {
  return ADMIN_COMMANDS.find((c) => c.area === area && c.name === (name ?? ''));
}

/**
 * Every option any command takes, with its parse type. The command line is parsed once with all of them (so the
 * area and command can be found among the options), then checked against the chosen command's own options; one
 * name therefore has one type everywhere.
 */
export const ALL_OPTIONS: Readonly<Record<string, Pick<OptionSpec, 'type' | 'multiple'>>> = (() => {
  const all: Record<string, Pick<OptionSpec, 'type' | 'multiple'>> = {};
  for (const command of ADMIN_COMMANDS) {
    for (const [name, spec] of Object.entries(command.options)) {
      const parse = { type: spec.type, multiple: spec.multiple ?? false };
      const seen = all[name];
      if (seen && (seen.type !== parse.type || seen.multiple !== parse.multiple))
        throw new Error(`admin option --${name} of "${commandName(command)}" differs from other commands'`);
      all[name] = parse;
    }
  }
  return all;
})();

const WIDTH = 110;

function synopsis(name: string, spec: OptionSpec): string {
  const text = spec.type === 'boolean' ? `--${name}` : `--${name} ${spec.value ?? 'VALUE'}`;
  return spec.required ? text : `[${text}]`;
}

/** One command's lines of the usage: its synopsis, wrapped, and its summary. */
function commandUsage(command: AdminCommand): string[] {
  const head = `  ${commandName(command)}${command.argument ? ` ${command.argument}` : ''}`;
  const indent = ' '.repeat(head.length + 1);
  const lines = [head];
  for (const [name, spec] of Object.entries(command.options)) {
    const word = synopsis(name, spec);
    const last = lines.length - 1;
    if (lines[last]!.length + 1 + word.length > WIDTH && lines[last] !== head) lines.push(`${indent}${word}`);
    else lines[last] = `${lines[last]} ${word}`;
  }
  return [...lines, ...(command.summary ?? []).map((line) => `      ${line}`)];
}

/** The usage text, made from the table so it lists exactly the commands and options that are accepted. */
export function adminUsage(): string {
  return [
    'usage: admin <area> <command> [options]',
    ...ADMIN_COMMANDS.flatMap(commandUsage),
    'env: DATA_DIR, DATABASE_URL, REDIS_URL, DATA_ENCRYPTION_KEY (as the server)',
  ].join('\n');
}
