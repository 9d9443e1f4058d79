import type { MouseEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SecurityCentreView } from 'shared-contracts';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

/** A section of the centre the menu leads to: the id of its heading (each card's `aria-labelledby`) and its name. */
export interface CentreSection {
  id: string;
  name: string;
}

/**
 * Scrolls to a section's heading and moves focus there, so the next Tab continues inside that section (a hash link
 * alone scrolls but leaves keyboard focus on the menu, far above). The heading takes focus through `tabindex="-1"`,
 * which keeps it out of the Tab order. The address keeps the hash, so the place can be shared and Back returns.
 */
export function jumpToSection(id: string): boolean {
  const target = document.getElementById(id);
  if (!target) return false;
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
  const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  target.scrollIntoView({ behavior: reduce ? 'auto' : 'smooth', block: 'start' });
  if (window.location.hash !== `#${id}`) window.history.pushState(window.history.state, '', `#${id}`);
  return true;
}

/** A link to a section of the centre: a real hash link (it works without script, opens in a new tab) that also moves focus. */
export function SectionLink({ id, children }: { id: string; children: ReactNode }) {
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if (jumpToSection(id)) event.preventDefault();
  };
  return (
    <a href={`#${id}`} onClick={onClick}>
      {children}
    </a>
  );
}

/** The sections the centre shows for this view, in page order (a vendor account has fewer, ADR 0041). */
export function useCentreSections(view: SecurityCentreView, withLinkedAccounts: boolean): CentreSection[] {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  const { t: common } = useTranslation('common');
  const section = (id: string, name: string): CentreSection => ({ id: `${id}-heading`, name });
  if (view.vendorAccount) {
    return [
      section('profile', t('profile.heading')),
      section('vendor-account', t('vendorAccount.heading')),
      section('customer', t('customer.heading')),
      section('sessions', t('sessions.heading')),
    ];
  }
  return [
    section('profile', t('profile.heading')),
    section('email', t('email.heading')),
    section('customer', t('customer.heading')),
    section('two-step', t('twoStep.heading')),
    section('passkeys', t('passkeys.heading')),
    section('recovery-codes', t('recoveryCodes.heading')),
    section('password', t('password.heading')),
    section('sessions', t('sessions.heading')),
    section('remembered-browsers', t('rememberedBrowsers.heading')),
    ...(withLinkedAccounts ? [section('linked-accounts', common('linkedAccounts.heading'))] : []),
  ];
}

/**
 * The in-page menu of the centre (issue 49): a list of links to each section. At 390 px a compact list at the top;
 * from 75rem wide it stands in the margin beside the cards and stays in view while the page scrolls
 * (security-centre.css), so every section is one click away from anywhere in the long column.
 */
export function SectionMenu({ sections }: { sections: readonly CentreSection[] }) {
  const { t } = useTranslation(SECURITY_CENTRE_NS);
  return (
    <nav
      className="security-centre__menu"
      aria-labelledby="security-menu-heading"
      data-testid="security-menu"
    >
      <div className="security-centre__menu-inner">
        <h2 id="security-menu-heading" className="security-centre__menu-heading">
          {t('menu.heading')}
        </h2>
        <ul className="security-centre__menu-list">
          {sections.map((section) => (
            <li key={section.id}>
              <SectionLink id={section.id}>{section.name}</SectionLink>
            </li>
          ))}
        </ul>
      </div>
    </nav>
  );
}
