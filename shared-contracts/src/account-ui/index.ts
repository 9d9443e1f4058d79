/**
 * shared-contracts/account-ui: the pieces of the signed-in pages (the security centre and the remotes it sends people
 * to) that the sign-in page never shows. Its own shared module, so none of it reaches the sign-in route's bytes.
 * Styled by `shared-contracts/account-ui/account-ui.css`, which each page using it imports.
 */
export * from './confirm-dialog.js';
export * from './dialog.js';
export * from './new-password-fields.js';
export * from './password-field.js';
export * from './password-rule-checks.js';
export * from './password-rules-list.js';
export * from './strength/password-strength.js';
export * from './use-live-form.js';
export * from './recovery-code-list.js';
export * from './result-status.js';
export * from './use-focus-after-removal.js';
export * from './confirm-its-you.js';
export * from './confirm-its-you-dialog.js';
export * from './confirm-its-you-here.js';
export * from './console-access.api.js';
// The date picker (SPEC.md §5) lives with the kit but is exported here: no sign-in page shows one.
export * from '../ui/date-field.js';
