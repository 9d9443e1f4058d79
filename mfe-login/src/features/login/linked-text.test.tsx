import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import de from '../../locales/de.json';
import en from '../../locales/en.json';
import enGB from '../../locales/en-GB.json';
import es from '../../locales/es.json';
import frCA from '../../locales/fr-CA.json';
import { linkedText } from './linked-text';

afterEach(cleanup);

const link = (href: string) => (label: string) => <a href={href}>{label}</a>;
const LINKS = { privacy: link('/privacy'), terms: link('/terms') };

describe('linkedText: a translated sentence with links in it', () => {
  it.each([
    ['en-GB', enGB],
    ['en', en],
    ['de', de],
    ['fr-CA', frCA],
    ['es', es],
  ])('%s: the reCAPTCHA notice reads as its sentence with both links, no tag left', (_locale, strings) => {
    const text = strings.login.recaptchaNotice;
    const { container } = render(<p>{linkedText(text, LINKS)}</p>);
    const privacy = /<privacy>([^<]*)<\/privacy>/.exec(text)?.[1];
    const terms = /<terms>([^<]*)<\/terms>/.exec(text)?.[1];
    expect(privacy).toBeTruthy();
    expect(terms).toBeTruthy();
    expect(screen.getByRole('link', { name: privacy }).getAttribute('href')).toBe('/privacy');
    expect(screen.getByRole('link', { name: terms }).getAttribute('href')).toBe('/terms');
    expect(container.textContent).toBe(text.replace(/<\/?\w+>/g, ''));
  });

  it('a pair with no link of its name shows its text alone; text without pairs stays as it is', () => {
    const { container } = render(
      <p>{linkedText('See <help>the guide</help> or <terms>terms</terms>.', LINKS)}</p>,
    );
    expect(container.textContent).toBe('See the guide or terms.');
    expect(screen.getAllByRole('link').map((a) => a.textContent)).toEqual(['terms']);
    expect(linkedText('No links here.', LINKS)).toEqual(['No links here.']);
    // A name the links object inherits is no link of it.
    expect(render(<p>{linkedText('<toString>x</toString>', LINKS)}</p>).container.textContent).toBe('x');
  });
});
