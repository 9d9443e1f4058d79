/**
 * shared-contracts/ui: the small UI kit every remote uses, styled by `shared-contracts/ui/tokens.css` (design
 * tokens and the kit's classes; logical properties only so right-to-left mirrors).
 */
export * from './alert.js';
export * from './button.js';
export * from './checkbox.js';
export * from './frame.js';
export * from './layout.js';
export * from './progress-bar.js';
export * from './sign-in-again.js';
export * from './text-field.js';
export * from './toast-event.js';
