import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

/** The repository root (gateway/src or gateway/dist → ../..), used for defaults such as SHELL_DIST. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const booleanText = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const urlText = (protocols: readonly string[]) =>
  z.string().refine(
    (value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    },
    { message: `must be a URL starting with ${protocols.map((p) => `${p}//`).join(' or ')}` },
  );

const keyText = z
  .string()
  .refine((v) => decodeKey(v)?.length === 32, { message: 'must be 32 bytes as 64 hex digits or base64' });

/** Environment variables of the gateway, validated once at start. */
const envSchema = z.object({
  PORT: z.coerce.number({ message: 'must be a port number' }).int().min(0).max(65535).default(8080),
  PUBLIC_URL: urlText(['http:', 'https:']).optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: urlText(['postgres:', 'postgresql:']).optional(),
  REDIS_URL: urlText(['redis:', 'rediss:']).optional(),
  SHELL_DIST: z.string().min(1).optional(),
  SEED_DEMO_DATA: booleanText.optional(),
  SECRET_KEY: keyText.optional(),
  DATA_ENCRYPTION_KEY: keyText.optional(),
  SMTP_URL: urlText(['smtp:', 'smtps:']).optional(),
  MAIL_FROM: z
    .string()
    .regex(/^(?:[^<>\r\n]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/, {
      message: 'must be an address (no-reply@example.com) or "Name <no-reply@example.com>" on one line',
    })
    .optional(),
  SMS_WEBHOOK_URL: urlText(['http:', 'https:']).optional(),
  SMS_WEBHOOK_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]+$/, { message: 'must be printable ASCII without spaces (sent as a bearer token)' })
    .optional(),
  METRICS_TOKEN: z
    .string()
    .regex(/^[\x21-\x7e]{16,}$/, {
      message:
        'must be at least 16 printable ASCII characters without spaces (scrapers send it as a bearer token)',
    })
    .optional(),
  METRICS_PUBLIC: booleanText.default(false),
  AUDIT_RETENTION_DAYS: z.coerce
    .number({ message: 'must be a number' })
    .int({ message: 'must be a whole number of days' })
    .min(1, { message: 'must be at least 1' })
    .max(36_500, { message: 'must be at most 36500' })
    .default(180),
  RECAPTCHA_VERIFY_URL: urlText(['http:', 'https:']).optional(),
  // Only 'production' changes anything here (demo data needs SEED_DEMO_DATA=true); any other value is a dev start.
  NODE_ENV: z.string().optional(),
  LOG_LEVEL: z.enum(LOG_LEVELS, { message: `must be one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  TRUST_PROXY: z.string().optional(),
  SESSION_IDLE_MINUTES: z.coerce
    .number({ message: 'must be a number' })
    .int()
    .min(1)
    .max(24 * 60)
    .default(30),
  SESSION_ABSOLUTE_HOURS: z.coerce
    .number({ message: 'must be a number' })
    .int()
    .min(1)
    .max(24 * 7)
    .default(12),
  // How recent a full sign-in must be for a change of how one signs in (S21, ADR 0036): the security centre's
  // changes, the 2FA set-up, passkeys and linking a login provider share this one window. At most an hour: a
  // longer one is no longer a recent sign-in.
  RECENT_SIGN_IN_SECONDS: z.coerce
    .number({ message: 'must be a number of seconds' })
    .int({ message: 'must be a whole number of seconds' })
    .min(1, { message: 'must be at least 1' })
    .max(3600, { message: 'must be at most 3600 (one hour)' })
    .default(600),
  // Idle keep-alive connections stay open longer than a balancer's own idle timeout (nginx 60 s, AWS ALB 60 s), so
  // the balancer, not the replica, closes them: a replica closing first races a request the balancer is sending.
  KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce
    .number({ message: 'must be a number' })
    .int()
    .min(1)
    .max(3600)
    .default(75),
  // Above the keep-alive timeout, as Node requires for a reused connection's next request.
  HEADERS_TIMEOUT_SECONDS: z.coerce.number({ message: 'must be a number' }).int().min(1).max(3600).optional(),
  // After SIGTERM /readyz answers 503 this long before the listener closes, so the balancer stops sending first.
  DRAIN_SECONDS: z.coerce.number({ message: 'must be a number' }).int().min(0).max(600).default(10),
  // The canary guard's check and the health counts' flush to the store (ADR 0059): every few seconds; tests and the
  // e2e suite shorten them.
  CANARY_GUARD_INTERVAL_MS: z.coerce
    .number({ message: 'must be a number' })
    .int()
    .min(100)
    .max(3_600_000)
    .default(5000),
  HEALTH_FLUSH_MS: z.coerce.number({ message: 'must be a number' }).int().min(100).max(60_000).default(5000),
  // New OIDC authorizations one source address may start per minute (0: no cap, e.g. a load test from one host).
  AUTHORIZATIONS_PER_MINUTE: z.coerce
    .number({ message: 'must be a number' })
    .int()
    .min(0)
    .max(1_000_000)
    .default(120),
});

/** The gateway's configuration after validation, with defaults and generated keys applied. */
export interface GatewayConfig {
  port: number;
  /** Issuer and the host of every link we build (never taken from Host headers: S13). */
  publicUrl: string;
  /** True when PUBLIC_URL is https: cookies get `__Host-` + Secure, HSTS is sent. */
  secure: boolean;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  shellDist: string;
  seedDemoData: boolean;
  /** HMAC key for the session state, anti-forgery tokens and cookie values. */
  secretKey: Buffer;
  /** AES-256-GCM key for TOTP secrets and client secrets at rest. */
  dataEncryptionKey: Buffer;
  smtpUrl: string | undefined;
  /** From address of mail; `no-reply@<PUBLIC_URL host>` unless MAIL_FROM is set ({@link defaultMailFrom}). */
  mailFrom?: string | undefined;
  /** SMS provider webhook; without it SMS goes to the dev outbox. */
  smsWebhookUrl?: string | undefined;
  /** Bearer token for the SMS webhook. */
  smsWebhookToken?: string | undefined;
  /** `GET /metrics` answers only `Authorization: Bearer <this>`; unset: 404 unless {@link metricsPublic}. */
  metricsToken?: string | undefined;
  /** METRICS_PUBLIC=true: `/metrics` answers anyone (a private network only); never together with a token. */
  metricsPublic?: boolean;
  /** Where reCAPTCHA tokens are verified (RECAPTCHA_VERIFY_URL); Google's siteverify when unset. */
  recaptchaVerifyUrl?: string | undefined;
  /** Days audit events are kept (AUDIT_RETENTION_DAYS, default 180); older ones are purged hourly. */
  auditRetentionDays?: number;
  logLevel: (typeof LOG_LEVELS)[number];
  /** Express `trust proxy` setting; false unless configured. */
  trustProxy: boolean | number | string;
  sessionIdleMs: number;
  /** Cap on new OIDC authorizations per source address and minute; 0 = none. */
  authorizationsPerMinute: number;
  sessionAbsoluteMs: number;
  /**
   * How long after a full sign-in its changes of how one signs in are allowed (RECENT_SIGN_IN_SECONDS, default 10
   * minutes, S21); the default when unset.
   */
  recentSignInMs?: number;
  /** Idle keep-alive timeout of the HTTP server (KEEP_ALIVE_TIMEOUT_SECONDS, default 75 s). */
  keepAliveTimeoutMs?: number;
  /** Headers timeout of the HTTP server (HEADERS_TIMEOUT_SECONDS, default keep-alive + 1 s). */
  headersTimeoutMs?: number;
  /** How long /readyz answers 503 after SIGTERM before the listener closes (DRAIN_SECONDS, default 10 s). */
  drainMs?: number;
  /** How often the canary guard judges running canaries (CANARY_GUARD_INTERVAL_MS, default 5 s; ADR 0059). */
  canaryGuardIntervalMs?: number;
  /** How often this replica adds its health counts to the store (HEALTH_FLUSH_MS, default 5 s). */
  healthFlushMs?: number;
}

/** Raised for a bad environment; carries one line per problem. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'ConfigError';
  }
}

function decodeKey(text: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) return Buffer.from(text, 'base64');
  return undefined;
}

// A key not given in the environment is generated once and kept in DATA_DIR (mode 0600), so restarts and other
// processes sharing DATA_DIR (the CLIs) use the same one.
function persistedKey(dataDir: string, fileName: string): Buffer {
  const file = path.join(dataDir, fileName);
  if (existsSync(file)) {
    const key = decodeKey(readFileSync(file, 'utf8').trim());
    if (!key || key.length !== 32)
      throw new ConfigError([`${file}: not a 32-byte key; remove it to generate a new one`]);
    return key;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return key;
}

function parseTrustProxy(value: string | undefined): boolean | number | string {
  if (value === undefined || value === '' || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value;
}

/**
 * Reads and validates the environment. Throws {@link ConfigError} with one line per bad variable; generates and
 * persists SECRET_KEY / DATA_ENCRYPTION_KEY in DATA_DIR when unset.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${String(issue.path[0] ?? 'environment')}: ${issue.message}`),
    );
  }
  const e = parsed.data;
  if (e.SMS_WEBHOOK_TOKEN && !e.SMS_WEBHOOK_URL)
    throw new ConfigError([
      'SMS_WEBHOOK_TOKEN: set SMS_WEBHOOK_URL too (the token is only sent to the webhook)',
    ]);
  if (e.METRICS_TOKEN && e.METRICS_PUBLIC)
    throw new ConfigError([
      'METRICS_PUBLIC: unset it when METRICS_TOKEN is set (with a token only its bearer reads /metrics)',
    ]);
  // Replicas sharing a database or Redis must share their keys: a key generated into one replica's DATA_DIR would
  // fail every anti-forgery token and cookie the other replicas made, and could not read what they encrypted.
  if (e.DATABASE_URL || e.REDIS_URL) {
    const missing = (['SECRET_KEY', 'DATA_ENCRYPTION_KEY'] as const).filter((name) => !e[name]);
    if (missing.length > 0)
      throw new ConfigError([
        `${missing.join(' and ')}: must be set in the environment when DATABASE_URL or REDIS_URL is set (every replica and CLI needs the same keys)`,
      ]);
  }
  if (e.HEADERS_TIMEOUT_SECONDS !== undefined && e.HEADERS_TIMEOUT_SECONDS <= e.KEEP_ALIVE_TIMEOUT_SECONDS)
    throw new ConfigError(['HEADERS_TIMEOUT_SECONDS: must be greater than KEEP_ALIVE_TIMEOUT_SECONDS']);
  const dataDir = path.resolve(e.DATA_DIR);
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    publicUrl,
    secure: publicUrl.startsWith('https:'),
    dataDir,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    shellDist: path.resolve(e.SHELL_DIST ?? path.join(REPO_ROOT, 'shell', 'dist')),
    seedDemoData: e.SEED_DEMO_DATA ?? demoByDefault(e, publicUrl),
    secretKey: e.SECRET_KEY ? decodeKey(e.SECRET_KEY)! : persistedKey(dataDir, 'secret-key'),
    dataEncryptionKey: e.DATA_ENCRYPTION_KEY
      ? decodeKey(e.DATA_ENCRYPTION_KEY)!
      : persistedKey(dataDir, 'data-encryption-key'),
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? defaultMailFrom(publicUrl),
    smsWebhookUrl: e.SMS_WEBHOOK_URL,
    smsWebhookToken: e.SMS_WEBHOOK_TOKEN,
    metricsToken: e.METRICS_TOKEN,
    metricsPublic: e.METRICS_PUBLIC,
    recaptchaVerifyUrl: e.RECAPTCHA_VERIFY_URL,
    auditRetentionDays: e.AUDIT_RETENTION_DAYS,
    logLevel: e.LOG_LEVEL,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    sessionIdleMs: e.SESSION_IDLE_MINUTES * 60_000,
    sessionAbsoluteMs: e.SESSION_ABSOLUTE_HOURS * 3_600_000,
    authorizationsPerMinute: e.AUTHORIZATIONS_PER_MINUTE,
    recentSignInMs: e.RECENT_SIGN_IN_SECONDS * 1000,
    keepAliveTimeoutMs: e.KEEP_ALIVE_TIMEOUT_SECONDS * 1000,
    headersTimeoutMs: (e.HEADERS_TIMEOUT_SECONDS ?? e.KEEP_ALIVE_TIMEOUT_SECONDS + 1) * 1000,
    drainMs: e.DRAIN_SECONDS * 1000,
    canaryGuardIntervalMs: e.CANARY_GUARD_INTERVAL_MS,
    healthFlushMs: e.HEALTH_FLUSH_MS,
  };
}

/**
 * Whether demo data is seeded when SEED_DEMO_DATA is unset (issues 39 and 48, ADR 0044): only on a developer's start,
 * the one `npm start` makes: a local PUBLIC_URL, no NODE_ENV=production, no DATABASE_URL or REDIS_URL. Each of those
 * says a deployment (a loopback PUBLIC_URL is also what a start behind a local TLS proxy has), where demo users with a
 * published password are an open door; such a start seeds them only when SEED_DEMO_DATA=true asks for them.
 */
function demoByDefault(
  e: { NODE_ENV?: string; DATABASE_URL?: string; REDIS_URL?: string },
  publicUrl: string,
): boolean {
  if (e.NODE_ENV === 'production' || e.DATABASE_URL || e.REDIS_URL) return false;
  return isLocalUrl(publicUrl);
}

/** True when `url`'s host is this machine (localhost, 127.0.0.0/8, ::1): a developer's demo, not a deployment. */
export function isLocalUrl(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return (
    host === 'localhost' || host.endsWith('.localhost') || /^127(\.\d{1,3}){3}$/.test(host) || host === '::1'
  );
}

/** The From address when MAIL_FROM is unset: no-reply at the public host, whose mail domain the operator owns. */
export function defaultMailFrom(publicUrl: string): string {
  return `no-reply@${new URL(publicUrl).hostname}`;
}

/** Loads the config or prints one line per problem and exits 1 (no stack trace for a configuration mistake). */
export function loadConfigOrExit(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  try {
    return loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const line of error.problems) process.stderr.write(`config error: ${line}\n`);
      process.exit(1);
    }
    throw error;
  }
}
