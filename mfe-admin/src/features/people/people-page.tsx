import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ADMIN_PEOPLE_PATH, ADMIN_PERSON_PATH } from 'shared-contracts';
import { formErrorsOf } from 'shared-contracts/api';
import type { ConsolePeopleRequest } from 'shared-contracts/console';
import { Button, FormErrors, ProgressBar, TextField } from 'shared-contracts/ui';
import { ConsoleLayout } from '../shared/console-layout';
import { useConsolePeopleQuery } from '../shared/people-search.api';

/** The search and its results, one page at a time (by username). */
function People() {
  const { t } = useTranslation('mfe-admin');
  const [text, setText] = useState('');
  const [asked, setAsked] = useState<ConsolePeopleRequest>({ query: '' });
  const { data, error, isFetching } = useConsolePeopleQuery(asked);
  const page = data?.page ?? 1;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;
  const go = (to: number) => setAsked({ ...asked, page: String(to) });

  function submit(event: FormEvent) {
    event.preventDefault();
    setAsked({ query: text.trim() });
  }

  return (
    <>
      <p>{t('people.intro')}</p>
      <form role="search" className="admin-people-search" onSubmit={submit}>
        <TextField
          label={t('people.search')}
          hint={t('people.searchHint')}
          type="search"
          value={text}
          onChange={(event) => setText(event.target.value)}
          data-testid="people-search"
        />
        <Button type="submit" variant="secondary">
          {t('people.find')}
        </Button>
      </form>
      <ProgressBar active={isFetching} label={t('people.loading')} />
      <FormErrors messages={formErrorsOf(t, error).form} />
      <p role="status" data-testid="people-count">
        {data ? t('people.found', { count: data.total }) : ''}
      </p>
      {data && data.people.length > 0 ? (
        <div className="admin-scroll" tabIndex={0} role="region" aria-label={t('people.resultsCaption')}>
          <table className="admin-table" data-testid="people-results">
            <caption>{t('people.resultsCaption')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('people.username')}</th>
                <th scope="col">{t('people.displayName')}</th>
                <th scope="col">{t('people.email')}</th>
                <th scope="col">{t('people.customers')}</th>
                <th scope="col">{t('people.state')}</th>
              </tr>
            </thead>
            <tbody>
              {data.people.map((person) => (
                <tr key={person.id} data-testid={`person-row-${person.username}`}>
                  <th scope="row">
                    <Link to={`${ADMIN_PERSON_PATH}?id=${encodeURIComponent(person.id)}`}>
                      <bdi>{person.username}</bdi>
                    </Link>
                  </th>
                  <td>
                    <bdi>{person.displayName}</bdi>
                  </td>
                  <td>
                    <bdi>{person.email ?? '—'}</bdi>
                  </td>
                  <td>
                    {person.customers.map((c, index) => (
                      <span key={c.id}>
                        {index > 0 ? ', ' : ''}
                        <bdi>{c.name}</bdi>
                      </span>
                    ))}
                  </td>
                  <td>{person.disabled ? t('people.disabled') : t('people.active')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {pages > 1 ? (
        <nav className="admin-pager" aria-label={t('people.pages')}>
          <Button type="button" variant="secondary" disabled={page <= 1} onClick={() => go(page - 1)}>
            {t('people.previous')}
          </Button>
          <span>{t('people.pageOf', { page, pages })}</span>
          <Button type="button" variant="secondary" disabled={page >= pages} onClick={() => go(page + 1)}>
            {t('people.next')}
          </Button>
        </nav>
      ) : null}
    </>
  );
}

/**
 * `/admin/people` (issue 52): the people the caller may help — support its partner's, a customer administrator its
 * customers' members, a platform administrator everyone's — found by username, e-mail, display name or customer.
 */
export function PeoplePage() {
  return (
    <ConsoleLayout titleKey="routes.people" permission="console.people.read" path={ADMIN_PEOPLE_PATH}>
      <People />
    </ConsoleLayout>
  );
}
