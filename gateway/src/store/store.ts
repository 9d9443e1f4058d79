import { SecretBox } from './secret-box.js';
import { AuditRepository } from './audit.repository.js';
import { ReleaseHealthRepository } from './release-health.repository.js';
import { CaptchaSettingsRepository } from './captcha-settings.repository.js';
import { ClientRepository } from './client.repository.js';
import { ConsoleGrantRepository } from './console-grant.repository.js';
import { CustomerRepository } from './customer.repository.js';
import { ExternalLoginRepository } from './external-login.repository.js';
import { IdentityProviderRepository } from './identity-provider.repository.js';
import { openDatabase, type OpenDatabaseOptions, type StoreDatabase } from './database.js';
import { migrateToLatest } from './migrator.js';
import { OneTimeTokenRepository } from './one-time-token.repository.js';
import { OutboxRepository } from './outbox.repository.js';
import { PasswordPolicyRepository } from './password-policy.repository.js';
import { PartnerRepository } from './partner.repository.js';
import { RecoveryCodeRepository } from './recovery-code.repository.js';
import { RememberedBrowserRepository } from './remembered-browser.repository.js';
import { ReleaseRepository } from './release.repository.js';
import { SecondFactorRepository } from './second-factor.repository.js';
import { UserRepository } from './user.repository.js';
import { PasskeyRepository } from './passkey.repository.js';

/** Every repository over one database. */
export interface Store {
  database: StoreDatabase;
  users: UserRepository;
  partners: PartnerRepository;
  customers: CustomerRepository;
  clients: ClientRepository;
  audit: AuditRepository;
  /** Mail and SMS kept when no provider is configured (dev outbox). */
  outbox: OutboxRepository;
  /** The AES-256-GCM box for secrets at rest (TOTP secrets, client secrets). */
  secrets: SecretBox;
  /** Mailed one-use secrets (reset links), hashed. */
  oneTimeTokens: OneTimeTokenRepository;
  /** Partners' password rules and maximum password age. */
  passwordPolicies: PasswordPolicyRepository;
  /** Partners' captcha provider and when it asks (the reCAPTCHA secret sealed with `secrets`). */
  captchaSettings: CaptchaSettingsRepository;
  /** Second-factor settings (the authenticator secret sealed with `secrets`). */
  secondFactors: SecondFactorRepository;
  /** Recovery codes, hashed. */
  recoveryCodes: RecoveryCodeRepository;
  /** Browsers remembered for the second factor, keyed by a hash of the cookie entry's random part (ADR 0036). */
  rememberedBrowsers: RememberedBrowserRepository;
  /** Passkeys and security keys, and skipped passkey offers. */
  passkeys: PasskeyRepository;
  /** External OpenID Connect providers (the client secret sealed with `secrets`, ADR 0018). */
  identityProviders: IdentityProviderRepository;
  /** External identities linked to accounts, by (issuer, subject) (S35). */
  externalLogins: ExternalLoginRepository;
  /** The remotes' published builds and release registry (ADR 0033). */
  releases: ReleaseRepository;
  /** Health per remote version: page loads, load failures and client errors (ADR 0059). */
  releaseHealth: ReleaseHealthRepository;
  /** The operators' console grants, apart from the HR applications' roles (ADR 0058). */
  consoleGrants: ConsoleGrantRepository;
}

/** Builds the repositories over an open database. */
export function createStore(
  database: StoreDatabase,
  dataEncryptionKey: Buffer,
  now: () => number = Date.now,
): Store {
  const secrets = new SecretBox(dataEncryptionKey);
  return {
    database,
    users: new UserRepository(database.db, now, database.committedReader),
    partners: new PartnerRepository(database.db, now),
    customers: new CustomerRepository(database.db, now, database.committedReader),
    clients: new ClientRepository(database.db, secrets, now),
    audit: new AuditRepository(database.db),
    outbox: new OutboxRepository(database.db, now),
    secrets,
    oneTimeTokens: new OneTimeTokenRepository(database.db, now),
    passwordPolicies: new PasswordPolicyRepository(database.db, now),
    captchaSettings: new CaptchaSettingsRepository(database.db, secrets, now),
    secondFactors: new SecondFactorRepository(database.db, now),
    recoveryCodes: new RecoveryCodeRepository(database.db, now),
    rememberedBrowsers: new RememberedBrowserRepository(database.db),
    passkeys: new PasskeyRepository(database.db, now),
    identityProviders: new IdentityProviderRepository(database.db, secrets, now),
    externalLogins: new ExternalLoginRepository(database.db, now),
    releases: new ReleaseRepository(database.db, database.dialect),
    releaseHealth: new ReleaseHealthRepository(database.db),
    consoleGrants: new ConsoleGrantRepository(database.db, database.dialect, now),
  };
}

/** Opens the database (SQLite file or PostgreSQL), runs the migrations, and builds the repositories. */
export async function openStore(
  options: OpenDatabaseOptions & { dataEncryptionKey: Buffer; now?: () => number },
): Promise<Store> {
  const database = openDatabase(options);
  try {
    await migrateToLatest(database);
  } catch (error) {
    await database.close();
    throw error;
  }
  return createStore(database, options.dataEncryptionKey, options.now);
}
