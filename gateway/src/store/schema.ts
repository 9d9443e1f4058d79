import type { Generated } from 'kysely';

// Table shapes for Kysely. Times are epoch milliseconds (bigint on PostgreSQL, integer on SQLite); booleans are
// 0/1 integers and lists are JSON text, so both dialects share one code path.

/** users: people who sign in. */
export interface UserTable {
  id: string;
  username: string;
  username_normalized: string;
  email: string | null;
  email_normalized: string | null;
  phone: string | null;
  display_name: string;
  password_hash: string | null;
  password_changed_at: number | null;
  password_expires_at: number | null;
  disabled: number;
  roles: string;
  requires_two_factor: number;
  partner_id: string | null;
  security_stamp: string;
  created_at: number;
  updated_at: number;
  /** The vendor provider whose sign-in created the account (migration 0025, ADR 0041); null for local accounts. */
  vendor_id: Generated<string | null>;
}

/** partners: white-label resellers and their branding (SPEC.md §3). */
export interface PartnerTable {
  id: string;
  name: string;
  domains: string;
  background_color: string | null;
  logo: string | null;
  logo_content_type: string | null;
  privacy_policy_url: string | null;
  default_language: string;
  available_languages: string;
  show_login_providers: number;
  show_language_options: number;
  show_background_images: number;
  is_default: number;
  created_at: number;
  /** 1: every user of the partner must have a second factor (set up at the next sign-in). */
  require_two_factor: Generated<number>;
  /** 1: the 2FA page offers "remember this browser" for 30 days. */
  remember_two_factor_browser: Generated<number>;
  /** Minutes without input after which the shell signs the user out (SilentLogout, ADR 0020); 0 = off. */
  idle_sign_out_minutes: Generated<number>;
}

/** customers: tenants a user can select after sign-in. */
export interface CustomerTable {
  id: string;
  partner_id: string | null;
  name: string;
  /** The name folded for search (`customerSearchKey`); null only for rows a migration has not reached. */
  search_key: string | null;
  /** The name in natural order (`customerSortKey`); null only for rows a migration has not reached. */
  sort_key: string | null;
  created_at: number;
}

/** memberships: which users belong to which customers. */
export interface MembershipTable {
  user_id: string;
  customer_id: string;
  roles: string;
  created_at: number;
  /** Epoch ms of the user's last choice of this customer; the last used one is listed first. */
  last_selected_at: number | null;
  /** The customer's folded name (`customers.search_key`), so the user's list is searched from one index. */
  search_key: string | null;
  /** The customer's natural-order key (`customers.sort_key`): the user's list is ordered and paged by it. */
  sort_key: string | null;
}

/** oidc_clients: relying parties. The secret is AES-256-GCM encrypted (oidc-provider needs it in clear to compare). */
export interface OidcClientTable {
  client_id: string;
  client_secret_enc: string | null;
  name: string;
  redirect_uris: string;
  post_logout_redirect_uris: string;
  backchannel_logout_uri: string | null;
  first_party: number;
  created_at: number;
  /** Where the application starts its own sign-in (initiate_login_uri); the signed-in home links to it. */
  initiate_login_uri: string | null;
  /** 1: disabled in the console (migration 0030): unknown to the OIDC provider. */
  disabled: Generated<number>;
}

/** external_logins: vendor identities, keyed by (issuer, subject), never e-mail (S35). */
export interface ExternalLoginTable {
  issuer: string;
  subject: string;
  user_id: string;
  /** The identity provider (`identity_providers.id`) the identity came through. */
  vendor_id: string;
  created_at: number;
  /** Epoch ms of the identity's last sign-in (migration 0016). */
  last_used_at: Generated<number | null>;
  /**
   * The account's security stamp when the link was made (migration 0021): a login provider's link is live only
   * while the account's stamp is unchanged (issue 39, ADR 0018). Null for links made before the migration.
   */
  security_stamp: Generated<string | null>;
}

/** identity_providers: external OpenID Connect providers (migration 0015, ADR 0018). */
export interface IdentityProviderTable {
  id: string;
  name: string;
  issuer: string;
  client_id: string;
  /** AES-256-GCM sealed, as the OIDC clients' secrets. */
  client_secret_enc: string;
  /** Space-separated scopes asked of the upstream. */
  scopes: Generated<string>;
  partner_id: string | null;
  vendor: Generated<number>;
  /** JSON list of role names a vendor account gets. */
  roles: Generated<string>;
  button_label: string | null;
  trust_upstream_mfa: Generated<number>;
  /** 1: disabled in the console (migration 0030): no button, no sign-in through it. */
  disabled: Generated<number>;
  /** The operator's token endpoint authentication method (migration 0032, ADR 0064); null: chosen by discovery. */
  token_auth_method: string | null;
  /** The method the last discovery chose (or the operator's); null until discovered. */
  token_auth_method_in_use: string | null;
  /** `private_key_jwt`'s private JWK (JSON), sealed as the client secret; null until first needed. */
  signing_key_enc: string | null;
  /** Its public JWK (JSON, with `kid`), served as the provider's JWKS. */
  signing_public_jwk: string | null;
  created_at: number;
  updated_at: number;
}

/** webauthn_credentials: registered devices and security keys. */
export interface WebauthnCredentialTable {
  id: string;
  user_id: string;
  public_key: string;
  counter: number;
  transports: string;
  display_name: string;
  created_at: number;
  last_used_at: number | null;
  /** The security stamp a passkey added without a proved second factor is bound to (migration 0026); else null. */
  bound_stamp: Generated<string | null>;
}

/** device_offer_skips: when a user last skipped the passkey offer (SkipFido). */
export interface DeviceOfferSkipTable {
  user_id: string;
  skipped_at: number;
}

/** second_factors: per-user second-factor settings; the TOTP secret is encrypted. */
export interface SecondFactorTable {
  user_id: string;
  totp_secret_enc: string | null;
  totp_last_step: number | null;
  enabled: number;
  preferred_method: string | null;
  updated_at: number;
  /** The phone number proved at set-up; the SMS method is on while it is set. */
  sms_phone: Generated<string | null>;
  /** 1 when the e-mailed PIN is on. */
  pin_enabled: Generated<number>;
  /** Per method, the security stamp it is bound to when added without a proved second factor (migration 0026). */
  totp_bound_stamp: Generated<string | null>;
  sms_bound_stamp: Generated<string | null>;
  pin_bound_stamp: Generated<string | null>;
}

/** recovery_codes: hashed, one use each. */
export interface RecoveryCodeTable {
  id: string;
  user_id: string;
  code_hash: string;
  used_at: number | null;
  created_at: number;
  /** The security stamp the set is bound to when made without a proved second factor (migration 0026); else null. */
  bound_stamp: Generated<string | null>;
}

/** one_time_tokens: hashed tokens (reset links, one-time sign-in, PINs). */
export interface OneTimeTokenTable {
  id: string;
  token_hash: string;
  purpose: string;
  user_id: string | null;
  data: string;
  expires_at: number;
  consumed_at: number | null;
  created_at: number;
  /** SHA-256 of the browser binding of a one-time sign-in token (0017); null otherwise. */
  binding_hash: string | null;
  /** Wrong codes typed against the token (0017). */
  attempts: Generated<number>;
}

/** audit_events: who did what, when, from where. */
export interface AuditEventTable {
  id: Generated<number>;
  at: number;
  kind: string;
  user_id: string | null;
  ip: string | null;
  data: string;
  /** `success` or `failure` (migration 0011). */
  outcome: string | null;
  user_agent: string | null;
  request_id: string | null;
  partner_id: string | null;
  /** The console's `data.actor`, `data.subject` and `data.customerId`, searchable (migration 0031). */
  actor: string | null;
  subject: string | null;
  customer_id: string | null;
}

/** audit_settings: the audit retention set in the console, one row `audit` (migration 0031). */
export interface AuditSettingsTable {
  id: string;
  retention_days: number;
  updated_at: number;
  updated_by: string;
}

/** oidc_payloads: oidc-provider adapter storage, primary key (kind, id). */
export interface OidcPayloadTable {
  id: string;
  /** oidc-provider model name (`AuthorizationCode`, `Session`, …) or `SigningKeySet` for the persisted keys. */
  kind: string;
  /** The model's payload as JSON text. */
  payload: string;
  grant_id: string | null;
  user_code: string | null;
  uid: string | null;
  /** Epoch milliseconds after which the row is dead; null = never expires. */
  expires_at: number | null;
  /** Epoch milliseconds of the single allowed consumption (codes, rotated refresh tokens); null = not consumed. */
  consumed_at: number | null;
}

/** sessions: server-side sessions (SQL session store); keyed by a hash of the cookie's id. */
export interface SessionTable {
  id_hash: string;
  data: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
}

/** account_sessions: which account each signed-in session belongs to (the security centre's list, ADR 0036). */
export interface AccountSessionTable {
  session_key: string;
  handle: string;
  user_id: string;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  ip: string | null;
  user_agent: string | null;
}

/** remembered_browsers: browsers that skip the second factor for an account (migration 0024, ADR 0008/0036). */
export interface RememberedBrowserTable {
  /** SHA-256 of the cookie entry's random part. */
  entry_key: string;
  handle: string;
  user_id: string;
  /** SHA-256 of the account's security stamp when the browser was remembered. */
  stamp_hash: string;
  remembered_at: number;
  last_used_at: number | null;
  expires_at: number;
  ip: string | null;
  user_agent: string | null;
}

/** outbox: mail and SMS kept for operators when no provider is configured (ARCHITECTURE.md stand-ins). */
export interface OutboxTable {
  id: Generated<number>;
  channel: string;
  recipient: string;
  /** null for SMS (migration 0002 dropped NOT NULL). */
  subject: string | null;
  body: string;
  created_at: number;
  /** The HTML part of an e-mail (migration 0002); null for SMS and for mail kept before it. */
  html: string | null;
}

/** kv: short-lived flow state (codes, attempt counters) for the SQL key-value store; rows past expires_at are dead. */
export interface KvTable {
  key: string;
  value: string;
  expires_at: number;
}

/** client_error_counts: client-error reports per minute, remote, version and kind (migration 0012). */
export interface ClientErrorCountTable {
  minute: number;
  remote: string;
  version: string;
  kind: string;
  count: number;
}

/** release_versions: one published build of a remote (migration 0019, ADR 0033). */
export interface ReleaseVersionTable {
  remote: string;
  version: string;
  /** SHA-256 over every file's path and bytes of the build folder (`contentHash`). */
  content_hash: string;
  /** How many rows of release_files the version has: a replica serves it only once it holds that many. */
  file_count: number;
  published_at: number;
  /** Who published it: a console user's username or `cli:<os user>` (migration 0028; null before). */
  published_by: string | null;
  /** When (ms) and by whom it was last made the active version. */
  activated_at: number | null;
  activated_by: string | null;
  /** Bytes on the wire (Brotli, else gzip, else plain) of its JS and CSS files. */
  bytes_on_wire: number;
  /** JSON: the shared versions its federation manifest requires, by package. */
  requires: string;
}

/** release_files: one file of a published build, with its precompressed encodings (ADR 0026). */
export interface ReleaseFileTable {
  remote: string;
  version: string;
  /** Relative path inside the build folder, `/`-separated. */
  path: string;
  content_type: string;
  /** SHA-256 of `body`, hex. */
  sha256: string;
  body: Uint8Array;
  body_br: Uint8Array | null;
  body_gzip: Uint8Array | null;
}

/** release_remotes: per remote the active version, the earlier ones (JSON list, newest last) and the canary. */
export interface ReleaseRemoteTable {
  remote: string;
  active: string | null;
  previous: string;
  canary_version: string | null;
  canary_percent: number | null;
  /** When (ms) and by whom the running canary was started (migration 0028). */
  canary_started_at: number | null;
  canary_started_by: string | null;
  /** The health counts of the canary's start minute when it started (JSON, VersionCounts[]; migration 0033). */
  canary_baseline: string | null;
  /** The canary guard's settings of the remote (ADR 0059). */
  guard_min_page_loads: Generated<number>;
  guard_min_failure_rate: Generated<number>;
  guard_ratio: Generated<number>;
}

/** release_events: the history of release changes (migration 0028, ADR 0059). */
export interface ReleaseEventTable {
  id: Generated<number>;
  at: number;
  remote: string;
  /** One of RELEASE_ACTIONS (shared-contracts/console). */
  action: string;
  version: string | null;
  percent: number | null;
  /** A console user's username, `cli:<os user>` or `guard`. */
  actor: string;
  reason: string | null;
  /** JSON: the guard's figures, by name. */
  figures: string | null;
}

/** release_health_counts: page loads and remote-load failures per minute, remote and version (migration 0028). */
export interface ReleaseHealthCountTable {
  minute: number;
  remote: string;
  version: string;
  /** `pageLoad` or `loadFailure`. */
  kind: string;
  count: number;
}

/** release_state: one row (id 1); `revision` rises with every registry change (what replicas poll). */
export interface ReleaseStateTable {
  id: number;
  revision: number;
}

/**
 * console_grants: the operators' console grants (migration 0027, ADR 0058), apart from the HR applications' roles.
 * `partner_id`/`customer_id` say where a grant applies (null: everywhere).
 */
export interface ConsoleGrantTable {
  id: string;
  user_id: string;
  role: string;
  partner_id: string | null;
  customer_id: string | null;
  /** Who granted it, as the audit's `data.actor` says: a username, or `cli:<os user>`. */
  granted_by: string;
  granted_at: number;
}

/** The database as Kysely sees it. */
export interface Database {
  users: UserTable;
  partners: PartnerTable;
  customers: CustomerTable;
  memberships: MembershipTable;
  oidc_clients: OidcClientTable;
  external_logins: ExternalLoginTable;
  identity_providers: IdentityProviderTable;
  webauthn_credentials: WebauthnCredentialTable;
  device_offer_skips: DeviceOfferSkipTable;
  second_factors: SecondFactorTable;
  recovery_codes: RecoveryCodeTable;
  one_time_tokens: OneTimeTokenTable;
  audit_events: AuditEventTable;
  audit_settings: AuditSettingsTable;
  oidc_payloads: OidcPayloadTable;
  sessions: SessionTable;
  account_sessions: AccountSessionTable;
  remembered_browsers: RememberedBrowserTable;
  outbox: OutboxTable;
  kv: KvTable;
  client_error_counts: ClientErrorCountTable;
  release_versions: ReleaseVersionTable;
  release_files: ReleaseFileTable;
  release_remotes: ReleaseRemoteTable;
  release_state: ReleaseStateTable;
  release_events: ReleaseEventTable;
  release_health_counts: ReleaseHealthCountTable;
  console_grants: ConsoleGrantTable;
}
