import { readFileSync } from 'node:fs';
import path from 'node:path';
import { safeCssColour, safeHttpUrl, type PartnerLanguage } from 'shared-contracts';
import type { Partner } from '../../store/partner.repository.js';
import { defineCommand, type OptionValues } from '../admin-command.js';
import { UsageError } from '../cli-support.js';
import { flag, list } from '../option-values.js';

/** The branding options `partners add` and `partners update` share. */
const brandingOptions = {
  domains: { type: 'string', value: 'a.example,b.example' },
  'background-color': { type: 'string', value: '#123456' },
  'privacy-url': { type: 'string', value: 'URL' },
  'default-language': { type: 'string', value: 'en-GB' },
  languages: { type: 'string', value: 'en-GB:English,de:Deutsch' },
  logo: { type: 'string', value: 'FILE' },
  'show-login-providers': { type: 'string', value: 'true|false' },
  'show-language-options': { type: 'string', value: 'true|false' },
  'show-background-images': { type: 'string', value: 'true|false' },
  default: { type: 'boolean' },
} as const;

const LOGO_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.svg': 'image/svg+xml',
  '.webp': 'image/webp',
};

function partnerFields(
  values: OptionValues<typeof brandingOptions> & { name?: string },
): Partial<Omit<Partner, 'id'>> {
  const fields: Partial<Omit<Partner, 'id'>> = {};
  if (values.name !== undefined) fields.name = values.name;
  if (values.domains !== undefined) fields.domains = list(values.domains).map((d) => d.toLowerCase());
  const colour = values['background-color'];
  // The same checks the shell applies before using a value (S34, shared-contracts/src/branding.ts).
  if (colour !== undefined) {
    const safe = safeCssColour(colour);
    if (!safe)
      throw new UsageError(
        `--background-color: "${colour}" is not a colour (#rgb, #rrggbb, rgb(), hsl() or a name)`,
      );
    fields.backgroundColor = safe;
  }
  const privacy = values['privacy-url'];
  if (privacy !== undefined) {
    const safe = safeHttpUrl(privacy);
    if (!safe)
      throw new UsageError(`--privacy-url: "${privacy}" is not an absolute http(s) URL without user info`);
    fields.privacyPolicyUrl = safe;
  }
  if (values['default-language'] !== undefined) fields.defaultLanguage = values['default-language'];
  if (values.languages !== undefined) {
    fields.availableLanguages = list(values.languages).map((entry): PartnerLanguage => {
      const [name, description] = entry.split(':');
      if (!name || !description) throw new UsageError(`--languages: "${entry}" must be code:Description`);
      return { name, description };
    });
  }
  if (values.logo !== undefined) {
    const file = path.resolve(values.logo);
    const type = LOGO_TYPES[path.extname(file).toLowerCase()];
    if (!type) throw new UsageError('--logo must be a .png, .jpg, .svg or .webp file');
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      throw new UsageError(`--logo: cannot read ${file}`);
    }
    if (bytes.length > 512 * 1024) throw new UsageError('--logo must be at most 512 KB');
    fields.logo = bytes.toString('base64');
    fields.logoContentType = type;
  }
  const login = flag(values['show-login-providers'], 'show-login-providers');
  if (login !== undefined) fields.showLoginProviders = login;
  const languages = flag(values['show-language-options'], 'show-language-options');
  if (languages !== undefined) fields.showLanguageOptions = languages;
  const images = flag(values['show-background-images'], 'show-background-images');
  if (images !== undefined) fields.showBackgroundImages = images;
  if (values.default) fields.isDefault = true;
  return fields;
}

export const partnersCommands = [
  defineCommand({
    area: 'partners',
    name: 'add',
    options: {
      id: { type: 'string', value: 'ID', required: true },
      name: { type: 'string', value: 'N', required: true },
      ...brandingOptions,
    },
    async run({ store, out }, values) {
      const partner = await store.partners.create({
        id: values.id,
        name: values.name,
        ...partnerFields(values),
      });
      out(`partner ${partner.id} added`);
    },
  }),
  defineCommand({
    area: 'partners',
    name: 'update',
    options: {
      id: { type: 'string', value: 'ID', required: true },
      name: { type: 'string', value: 'N' },
      ...brandingOptions,
    },
    summary: ['changes only the options given'],
    async run({ store, out }, values) {
      if (!(await store.partners.findById(values.id))) throw new UsageError(`no partner "${values.id}"`);
      await store.partners.update(values.id, partnerFields(values));
      out(`partner ${values.id} updated`);
    },
  }),
  defineCommand({
    area: 'partners',
    name: 'list',
    options: {},
    async run({ store, out }) {
      for (const p of await store.partners.list())
        out(`${p.id}\t${p.name}\t${p.domains.join(',') || '-'}${p.isDefault ? '\tdefault' : ''}`);
    },
  }),
];
