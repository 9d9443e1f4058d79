/**
 * Every console call's samples for the access matrix (`http/console-matrix.test.ts`), one import per area. The type
 * names every call whose row is a console permission: a call added to the table without samples fails the type
 * check here (and the matrix's own check at run time).
 */
import { samples as applications } from './applications.js';
import { samples as audit } from './audit.js';
import { samples as importing } from './import.js';
import { samples as grants } from './grants.js';
import { samples as people } from './people.js';
import { samples as partners } from './partners.js';
import { samples as releases } from './releases.js';
import type { ConsoleCallSamples, ConsoleMatrixCallName } from './types.js';

export const CONSOLE_SAMPLES: Record<ConsoleMatrixCallName, ConsoleCallSamples> = {
  ...releases,
  ...grants,
  ...people,
  ...partners,
  ...applications,
  ...audit,
  ...importing,
};
