/**
 * shared-contracts/api: the one RTK Query API client of the site and the shared store pieces. Shared as a
 * federation singleton, so the shell and every remote use the same API instance, store shape and navigator.
 */
export * from './account-base-query.js';
export * from './antiforgery.js';
export * from './captcha.js';
export * from './base-api.js';
export * from './client-config.js';
export * from './confirm-its-you.api.js';
export * from './navigation.js';
export * from './partner.api.js';
export * from './secure-sign-in.api.js';
export * from './session.slice.js';
export * from './store.js';
export * from './use-form-errors.js';
