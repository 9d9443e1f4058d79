import type { Kysely } from 'kysely';
import type { SecretBox } from './secret-box.js';
import type { Database } from './schema.js';

/** The `captcha_settings` table (migration 0010): one optional row per partner. */
export interface CaptchaSettingsTable {
  partner_id: string;
  provider: string;
  when_required: string;
  site_key: string | null;
  /** Sealed with the data-encryption key ({@link SecretBox}). */
  secret: string | null;
  /** reCAPTCHA v3 minimum score in hundredths (50 = 0.5). */
  min_score: number;
  updated_at: number;
}

/** Which captcha a partner uses. */
export const CAPTCHA_PROVIDER_NAMES = ['altcha', 'recaptcha-v2', 'recaptcha-v3', 'off'] as const;
/** Which captcha a partner uses. */
export type CaptchaProviderName = (typeof CAPTCHA_PROVIDER_NAMES)[number];
/** When a challenge is asked: every guarded call, none, or when the counters say so. */
export const CAPTCHA_WHEN = ['always', 'never', 'risk'] as const;
/** When a challenge is asked. */
export type CaptchaWhen = (typeof CAPTCHA_WHEN)[number];

/** A partner's captcha settings, secret opened. */
export interface CaptchaSettings {
  partnerId: string;
  provider: CaptchaProviderName;
  when: CaptchaWhen;
  siteKey: string | undefined;
  secret: string | undefined;
  /** 0 to 1. */
  minScore: number;
}

/** The settings of a partner without a row: the self-hosted proof-of-work, on risk. */
export function defaultCaptchaSettings(partnerId: string): CaptchaSettings {
  return {
    partnerId,
    provider: 'altcha',
    when: 'risk',
    siteKey: undefined,
    secret: undefined,
    minScore: 0.5,
  };
}

type CaptchaDatabase = Database & { captcha_settings: CaptchaSettingsTable };

function oneOf<T extends string>(value: string, allowed: readonly T[], fallback: T): T {
  return (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

/** Partners' captcha settings; a partner without a row has {@link defaultCaptchaSettings}. */
export class CaptchaSettingsRepository {
  private readonly db: Kysely<CaptchaDatabase>;
  private readonly changeListeners = new Set<() => void>();

  /** Runs `listener` after every write through this repository, so in-process caches drop their copy at once. */
  onChange(listener: () => void): void {
    this.changeListeners.add(listener);
  }

  constructor(
    db: Kysely<Database>,
    private readonly secrets: SecretBox,
    private readonly now: () => number = Date.now,
  ) {
    // The table is this repository's own (added by 0010), so its type lives here rather than in schema.ts.
    this.db = db as unknown as Kysely<CaptchaDatabase>;
  }

  /** The partner's settings; a partner without a row gets the defaults, with `fallback` over them. */
  async find(partnerId: string, fallback: Partial<CaptchaSettings> = {}): Promise<CaptchaSettings> {
    const row = await this.db
      .selectFrom('captcha_settings')
      .selectAll()
      .where('partner_id', '=', partnerId)
      .executeTakeFirst();
    if (!row) return { ...defaultCaptchaSettings(partnerId), ...fallback, partnerId };
    let secret: string | undefined;
    try {
      secret = row.secret === null ? undefined : this.secrets.decrypt(row.secret);
    } catch {
      // A secret sealed under another key verifies nothing: reCAPTCHA then refuses every token (fail closed).
      secret = undefined;
    }
    return {
      partnerId,
      provider: oneOf(row.provider, CAPTCHA_PROVIDER_NAMES, 'altcha'),
      when: oneOf(row.when_required, CAPTCHA_WHEN, 'risk'),
      siteKey: row.site_key ?? undefined,
      secret,
      minScore: Number(row.min_score) / 100,
    };
  }

  /** Changes the given fields (the rest keep their value, or the defaults for a partner without a row). */
  async update(
    partnerId: string,
    changes: Partial<Omit<CaptchaSettings, 'partnerId'>>,
  ): Promise<CaptchaSettings> {
    const next = { ...(await this.find(partnerId)), ...changes };
    const row = {
      partner_id: partnerId,
      provider: next.provider,
      when_required: next.when,
      site_key: next.siteKey ?? null,
      secret: next.secret === undefined ? null : this.secrets.encrypt(next.secret),
      min_score: Math.round(next.minScore * 100),
      updated_at: this.now(),
    };
    const { partner_id: _id, ...set } = row;
    await this.db
      .insertInto('captcha_settings')
      .values(row)
      .onConflict((oc) => oc.column('partner_id').doUpdateSet(set))
      .execute();
    for (const listener of this.changeListeners) listener();
    return next;
  }
}
