import { ERROR_MESSAGES } from '../../error-codes.js';
import type { ErrorTranslation } from './error-translation.js';

/**
 * The `errors` namespace in en (American English). Every message of the catalogue reads the same in British and
 * American English (no -our/-ise words), so en is the en-GB source itself; a code whose spelling differs gets an
 * override here.
 */
export const errorsEn = { ...ERROR_MESSAGES } as const satisfies ErrorTranslation;
