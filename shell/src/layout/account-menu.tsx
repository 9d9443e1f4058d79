import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ADMIN_PATH } from 'shared-contracts';
import { useConsoleAccessQuery } from 'shared-contracts/account-ui';
import './account-menu.css';

/** The security centre: the account page (ADR 0036). */
export const SECURITY_CENTRE_PATH = '/account/';

/**
 * The signed-in person's menu in the header (issue 49): a disclosure button with their name that shows "Security
 * centre" and "Sign out". The WAI-ARIA disclosure pattern, not a `role="menu"`: the entries are links, reached with
 * Tab like any other, so no arrow-key roving is owed. Escape closes it and gives focus back to the button; a click
 * or focus outside closes it, and so does following one of its links (the header stays mounted across pages).
 * Loaded lazily and only for a signed-in person, so the sign-in page's bytes carry none of it
 * (bench/lib/route-bytes.mjs lists it as on demand). "Administration" (the operators' console, ADR 0060) shows only
 * when `ConsoleAccess` answers a console permission; its call lives in the signed-in kit (shared-contracts/account-ui),
 * which the shell shares lazily, so neither it nor the console's contract reaches the sign-in page.
 */
export function AccountMenu({ name }: { name: string }) {
  const { t } = useTranslation('common');
  const [open, setOpen] = useState(false);
  const { data: consoleAccess } = useConsoleAccessQuery();
  const showsConsole = (consoleAccess?.permissions.length ?? 0) > 0;
  const listId = useId();
  const rootRef = useRef<HTMLElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const closeIfOutside = (event: Event) => {
      if (event.target instanceof Node && !rootRef.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener('pointerdown', closeIfOutside);
    document.addEventListener('focusin', closeIfOutside);
    return () => {
      document.removeEventListener('pointerdown', closeIfOutside);
      document.removeEventListener('focusin', closeIfOutside);
    };
  }, [open]);

  return (
    <nav
      ref={rootRef}
      className="account-menu"
      aria-label={t('accountMenu.label')}
      data-testid="account-menu"
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        // Escape closes this menu only, not a dialog behind it.
        event.stopPropagation();
        setOpen(false);
        buttonRef.current?.focus();
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className="account-menu__button"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((was) => !was)}
      >
        <svg className="account-menu__icon" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <circle cx="12" cy="8" r="4" />
          <path d="M4 21a8 8 0 0 1 16 0" />
        </svg>
        <span className="account-menu__name">{name}</span>
        <svg className="account-menu__chevron" viewBox="0 0 24 24" aria-hidden="true" focusable="false">
          <path d="m6 9 6 6 6-6" />
        </svg>
      </button>
      <ul id={listId} className="account-menu__list" hidden={!open} onClick={() => setOpen(false)}>
        <li>
          <Link to={SECURITY_CENTRE_PATH}>{t('accountMenu.securityCentre')}</Link>
        </li>
        {showsConsole ? (
          <li>
            <Link to={ADMIN_PATH}>{t('accountMenu.administration')}</Link>
          </li>
        ) : null}
        <li>
          <Link to="/account/logout">{t('home.signOut')}</Link>
        </li>
      </ul>
    </nav>
  );
}
