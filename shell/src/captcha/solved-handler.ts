import type { CaptchaVersion } from 'shared-contracts';

/**
 * What a widget reports once the person solved it: the dialog hands it to each challenge (a module of its own so the
 * dialog and its challenges do not import each other).
 */
export type SolvedHandler = (version: CaptchaVersion, token: string) => void;
