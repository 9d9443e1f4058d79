/**
 * shared-contracts: everything two parts of the identity service must agree on. This entry is free of React and
 * of the DOM so the gateway can import it; the API client is in `shared-contracts/api`, the UI kit in
 * `shared-contracts/ui` (and `shared-contracts/account-ui` for the signed-in pages).
 */
export * from './constants.js';
export * from './return-url.js';
export * from './remote.js';
export * from './routes.js';
export * from './error-codes.js';
export * from './protocol.js';
export * from './user.schema.js';
export * from './partner.schema.js';
export * from './client-error.schema.js';
export * from './login.schema.js';
export * from './external.schema.js';
export * from './branding.js';
export * from './locales/error-translations.js';
export * from './locale-choice.js';
export * from './two-factor.schema.js';
export * from './customers.schema.js';
export * from './password-rules.js';
export * from './recovery.schema.js';
export * from './ops.schema.js';
export * from './webauthn.schema.js';
export * from './captcha.schema.js';
export * from './one-time-token.schema.js';
export * from './security-centre.schema.js';
export * from './secret-parameters.js';
export * from './user-agent.js';
