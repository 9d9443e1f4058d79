/** What the server keeps about a signed-in (or signing-in) browser. */
export interface SessionData {
  /** Set once every sign-in step has passed: the browser is signed in. */
  account?: SignedInAccount;
  /** A sign-in in progress: the password passed, later steps pending (ARCHITECTURE.md "Sign-in"). */
  pending?: PendingSignIn;
  /** The username remembered for this session (SPEC.md §3 "kept for the session"). */
  username?: string;
  /** A sign-out this browser just finished, for the logged-out page's "Return to <client>" link (read once). */
  loggedOut?: FinishedSignOut;
  /** An authorization request this browser sent to an upstream provider, awaiting its callback (ADR 0018). */
  upstreamFlow?: UpstreamFlow;
  /** An upstream identity linked to no account yet: the link page's subject (ExternalUser, Link, Next). */
  externalIdentity?: ExternalIdentity;
  /** The browser signed in through an upstream: its provider and ID token, for the upstream sign-out (S27). */
  upstream?: UpstreamSession;
  /** After signing out of an upstream-signed-in session: the question of /account/logout/upstream (once). */
  upstreamLogout?: UpstreamSession & { expiresAt: number };
}

/** An authorization request to an upstream: its checks (state, nonce, PKCE verifier: S35) and what it is for. */
export interface UpstreamFlow {
  providerId: string;
  state: string;
  nonce: string;
  codeVerifier: string;
  returnUrl: string;
  /** `sign-in`: sign in (or link when unknown); `link`: add the identity to the signed-in account (EexLink). */
  purpose: 'sign-in' | 'link';
  /** For `link`: the account that asked. */
  userId?: string;
  startedAt: number;
}

/** An upstream identity waiting to be linked to a local account. */
export interface ExternalIdentity {
  providerId: string;
  issuer: string;
  subject: string;
  name?: string;
  email?: string;
  amr: string[];
  idToken: string;
  returnUrl: string;
  at: number;
}

/** The upstream a session signed in through. */
export interface UpstreamSession {
  providerId: string;
  idToken: string;
  /** The logoutId of the application's sign-out that led here, if any (the logged-out page's way back). */
  logoutId?: string;
  /** The account that signed out (the audit of the upstream sign-out). */
  userId?: string;
}

/** The server's record of a finished RP-initiated sign-out (never taken from the query). */
export interface FinishedSignOut {
  /** Random id in `/account/loggedout?logoutId=<id>`; LogoutView answers for it once. */
  id: string;
  clientName?: string;
  /** The client's registered post_logout_redirect_uri with its state (exact match checked by the provider, S32). */
  postLogoutRedirectUri: string;
  /** Epoch ms after which the record is ignored. */
  expiresAt: number;
}

/** The account a session is signed in as. */
export interface SignedInAccount {
  userId: string;
  /** Epoch seconds of the authentication (OIDC auth_time). */
  authTime: number;
  /** Authentication methods references (RFC 8176), e.g. ["pwd"], ["pwd","otp"]. */
  amr: string[];
  /** The user's security stamp at sign-in; a credential change invalidates the session. */
  securityStamp: string;
  /** The selected customer (tenant), once chosen. */
  customerId?: string;
  /** Epoch seconds of that choice: an application's `prompt=select_account` is answered by a choice made after it. */
  customerSelectedAt?: number;
}

/** A sign-in between the password and the last step. */
export interface PendingSignIn {
  userId: string;
  returnUrl: string;
  rememberMe: boolean;
  amr: string[];
  /** Ids of the steps already passed, in order ("password" first). */
  passed: string[];
  /** The step the browser was sent to; only its calls work now (S3, S20). */
  current: string | undefined;
  startedAt: number;
  /**
   * Epoch ms of the last credential this sign-in proved (ADR 0005 "Only a proved factor renews the sign-in time"): the
   * password, passkey, one-time token or upstream that started it, then the second factor if one is proved; for a
   * silent sign-in, the remembered sign-in's own time. The completed session's `authTime` is this, never the
   * completion's time: a step that proves nothing (customer selection, passkey offer) does not renew it.
   */
  provedAt: number;
  /**
   * When this pending sign-in itself verified the account's password (`Login` only; a one-time token, passkey,
   * upstream or silent sign-in leaves it out). The expired-password step then needs no current password (ADR 0039).
   */
  passwordVerifiedAt?: number;
  /** This browser was remembered after an earlier second factor of the user (ADR 0008): the 2FA step is skipped. */
  secondFactorRemembered?: boolean;
  /** The browser reported a user-verifying platform authenticator at Login (the passkey offer needs one). */
  platformAuthenticator?: boolean;
  /** The sign-in came through an upstream (ADR 0018): kept on the signed-in session for the upstream sign-out. */
  upstream?: UpstreamSession;
  /**
   * An upstream identity to link to the account once every step has passed (`Link`, issue 39): a sign-in that
   * stops at the second factor links nothing.
   */
  link?: PendingLink;
  /** "Remember this browser" was ticked at the second factor: applied only when the sign-in completes. */
  rememberBrowser?: boolean;
}

/** An upstream identity (issuer, subject: S35) waiting for its sign-in to complete before it is linked. */
export interface PendingLink {
  providerId: string;
  issuer: string;
  subject: string;
}

/** A stored session. */
export interface SessionRecord {
  data: SessionData;
  createdAt: number;
  lastSeenAt: number;
  /** Absolute end, whatever the activity (S28). */
  absoluteExpiresAt: number;
  /** Remember-me: the cookie outlives the browser, at most 30 days. */
  persistent: boolean;
}

/** What a store holds under a key: a live record, or the marker of a session that ended (nothing may replace it). */
export type StoredSession = { kind: 'live'; record: SessionRecord } | { kind: 'ended' };

/**
 * Where sessions live: SQL (SQLite/PostgreSQL), memory (tests) or Redis (REDIS_URL). Keys are hashes of the
 * cookie's id, so a leaked store does not hand out live cookies.
 *
 * Only `create` inserts; `update` writes over a live record and nothing else. A request that loaded a session
 * before another request ended it (sign-out, a new id) therefore cannot write it back (S27): its update finds no
 * record, or an ended marker, and changes nothing.
 */
export interface SessionStore {
  /** The live record or ended marker under `key`, until its `storeUntil` (epoch ms); then undefined. */
  get(key: string): Promise<StoredSession | undefined>;
  /** Inserts a record kept until `storeUntil`; false (nothing written) when the key is taken, live or ended. */
  create(key: string, record: SessionRecord, storeUntil: number): Promise<boolean>;
  /** Replaces a live record; false (nothing written) when there is none: never stored, removed, ended, or past. */
  update(key: string, record: SessionRecord, storeUntil: number): Promise<boolean>;
  /** Removes the record; with `endedUntil`, leaves an ended marker until then instead. */
  destroy(key: string, endedUntil?: number): Promise<void>;
  /**
   * `destroy(oldKey, endedUntil)` then `create(newKey, record, storeUntil)`, in one write where the store can (a new
   * id for a session, S24: one statement in SQL, one script in Redis). False when `newKey` is taken: the old key has
   * ended all the same and the new record is not written, as with the two calls.
   */
  replace(
    oldKey: string,
    endedUntil: number,
    newKey: string,
    record: SessionRecord,
    storeUntil: number,
  ): Promise<boolean>;
  /** True when the store answers (readiness). */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}
