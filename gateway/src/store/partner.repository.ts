import type { Kysely, Selectable } from 'kysely';
import type { PartnerLanguage } from 'shared-contracts';
import type { Database, PartnerTable } from './schema.js';

/** A partner (white-label reseller) and its branding (SPEC.md §3). */
export interface Partner {
  id: string;
  name: string;
  domains: string[];
  backgroundColor: string | null;
  /** Logo bytes as base64, with their content type. */
  logo: string | null;
  logoContentType: string | null;
  privacyPolicyUrl: string | null;
  defaultLanguage: string;
  availableLanguages: PartnerLanguage[];
  showLoginProviders: boolean;
  showLanguageOptions: boolean;
  showBackgroundImages: boolean;
  /** The partner used when no domain matches. */
  isDefault: boolean;
  /** Every user of the partner must have a second factor: set-up at the next sign-in (ADR 0008). */
  requireTwoFactor: boolean;
  /** The 2FA page offers "remember this browser" for 30 days (ADR 0008); off by default. */
  rememberTwoFactorBrowser: boolean;
  /** Minutes without input in any tab after which the shell signs the user out (ADR 0020); 0 = off (default). */
  idleSignOutMinutes: number;
}

/** Fields of a new partner; everything but id and name has a default. */
export type NewPartner = Pick<Partner, 'id' | 'name'> & Partial<Omit<Partner, 'id' | 'name'>>;

function toPartner(row: Selectable<PartnerTable>): Partner {
  return {
    id: row.id,
    name: row.name,
    domains: JSON.parse(row.domains) as string[],
    backgroundColor: row.background_color,
    logo: row.logo,
    logoContentType: row.logo_content_type,
    privacyPolicyUrl: row.privacy_policy_url,
    defaultLanguage: row.default_language,
    availableLanguages: JSON.parse(row.available_languages) as PartnerLanguage[],
    showLoginProviders: row.show_login_providers === 1,
    showLanguageOptions: row.show_language_options === 1,
    showBackgroundImages: row.show_background_images === 1,
    isDefault: row.is_default === 1,
    requireTwoFactor: row.require_two_factor === 1,
    rememberTwoFactorBrowser: row.remember_two_factor_browser === 1,
    idleSignOutMinutes: row.idle_sign_out_minutes ?? 0,
  };
}

function toRow(p: Partial<Partner>): Partial<Selectable<PartnerTable>> {
  const row: Partial<Selectable<PartnerTable>> = {};
  if (p.name !== undefined) row.name = p.name;
  if (p.domains !== undefined) row.domains = JSON.stringify(p.domains.map((d) => d.toLowerCase()));
  if (p.backgroundColor !== undefined) row.background_color = p.backgroundColor;
  if (p.logo !== undefined) row.logo = p.logo;
  if (p.logoContentType !== undefined) row.logo_content_type = p.logoContentType;
  if (p.privacyPolicyUrl !== undefined) row.privacy_policy_url = p.privacyPolicyUrl;
  if (p.defaultLanguage !== undefined) row.default_language = p.defaultLanguage;
  if (p.availableLanguages !== undefined) row.available_languages = JSON.stringify(p.availableLanguages);
  if (p.showLoginProviders !== undefined) row.show_login_providers = p.showLoginProviders ? 1 : 0;
  if (p.showLanguageOptions !== undefined) row.show_language_options = p.showLanguageOptions ? 1 : 0;
  if (p.showBackgroundImages !== undefined) row.show_background_images = p.showBackgroundImages ? 1 : 0;
  if (p.isDefault !== undefined) row.is_default = p.isDefault ? 1 : 0;
  if (p.requireTwoFactor !== undefined) row.require_two_factor = p.requireTwoFactor ? 1 : 0;
  if (p.rememberTwoFactorBrowser !== undefined)
    row.remember_two_factor_browser = p.rememberTwoFactorBrowser ? 1 : 0;
  if (p.idleSignOutMinutes !== undefined) row.idle_sign_out_minutes = p.idleSignOutMinutes;
  return row;
}

/** Partners table access. */
export class PartnerRepository {
  private readonly changeListeners = new Set<() => void>();

  /** Runs `listener` after every write through this repository, so in-process caches drop their copy at once. */
  onChange(listener: () => void): void {
    this.changeListeners.add(listener);
  }

  private changed(): void {
    for (const listener of this.changeListeners) listener();
  }

  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  async create(input: NewPartner): Promise<Partner> {
    const row = {
      id: input.id,
      name: input.name,
      domains: '[]',
      background_color: null,
      logo: null,
      logo_content_type: null,
      privacy_policy_url: null,
      default_language: 'en-GB',
      available_languages: JSON.stringify([{ name: 'en-GB', description: 'English' }]),
      show_login_providers: 0,
      show_language_options: 0,
      show_background_images: 0,
      is_default: 0,
      require_two_factor: 0,
      remember_two_factor_browser: 0,
      idle_sign_out_minutes: 0,
      created_at: this.now(),
      ...toRow(input),
    };
    await this.db.transaction().execute(async (trx) => {
      if (row.is_default === 1) await trx.updateTable('partners').set({ is_default: 0 }).execute();
      await trx.insertInto('partners').values(row).execute();
    });
    this.changed();
    return toPartner(row);
  }

  async update(id: string, changes: Partial<Omit<Partner, 'id'>>): Promise<Partner | undefined> {
    const row = toRow(changes);
    await this.db.transaction().execute(async (trx) => {
      if (row.is_default === 1) await trx.updateTable('partners').set({ is_default: 0 }).execute();
      if (Object.keys(row).length > 0)
        await trx.updateTable('partners').set(row).where('id', '=', id).execute();
    });
    this.changed();
    return this.findById(id);
  }

  async findById(id: string): Promise<Partner | undefined> {
    const row = await this.db.selectFrom('partners').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toPartner(row) : undefined;
  }

  /** The partner whose domains include the host (lower-cased, without port), else the default partner. */
  async findForHost(host: string | undefined): Promise<Partner | undefined> {
    const all = await this.list();
    const wanted = (host ?? '').toLowerCase();
    const bare = wanted.replace(/:\d+$/, '');
    return (
      all.find((p) => p.domains.includes(wanted)) ??
      all.find((p) => p.domains.includes(bare)) ??
      all.find((p) => p.isDefault) ??
      all[0]
    );
  }

  async list(): Promise<Partner[]> {
    const rows = await this.db.selectFrom('partners').selectAll().orderBy('id').execute();
    return rows.map(toPartner);
  }
}
