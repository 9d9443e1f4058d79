/** A mistake in the command line or its values: printed as one line, exit code 2, never a stack trace. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Runs a CLI's main: user mistakes (UsageError and the `userErrors` classes) print one line; faults print more. */
export function runCli(
  main: () => Promise<void>,
  userErrors: (new (...args: never[]) => Error)[] = [],
): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      if (error instanceof UsageError || userErrors.some((E) => error instanceof E)) {
        process.stderr.write(`error: ${(error as Error).message}\n`);
        process.exit(2);
      }
      if (error instanceof Error && String((error as { code?: unknown }).code).startsWith('ERR_PARSE_ARGS')) {
        process.stderr.write(`error: ${error.message}\n`);
        process.exit(2);
      }
      process.stderr.write(`failed: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
