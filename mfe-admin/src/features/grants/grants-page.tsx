import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ADMIN_GRANTS_PATH } from 'shared-contracts';
import { ResultStatus, useConsoleAccessQuery } from 'shared-contracts/account-ui';
import { formErrorsOf } from 'shared-contracts/api';
import type { ListedGrant } from 'shared-contracts/console';
import { Button, FormErrors, ProgressBar } from 'shared-contracts/ui';
import { formatWhen } from '../shared/format';
import { ConsoleLayout } from '../shared/console-layout';
import { GrantDialog, useScopeText } from './grant-dialog';
import { useConsoleGrantsQuery } from './grants.api';

function Grants() {
  const { t, i18n } = useTranslation('mfe-admin');
  const { data, error, isLoading } = useConsoleGrantsQuery();
  const { data: access } = useConsoleAccessQuery();
  const canChange = access?.permissions.includes('console.grants.change') ?? false;
  const scopeText = useScopeText();
  // undefined: no dialog; 'new': give a grant; a grant: withdraw it.
  const [dialog, setDialog] = useState<ListedGrant | 'new' | undefined>(undefined);
  const [result, setResult] = useState('');
  return (
    <>
      <p>{t('grants.intro')}</p>
      {canChange ? (
        <p>
          <Button
            type="button"
            onClick={() => {
              setResult('');
              setDialog('new');
            }}
          >
            {t('grants.grant')}
          </Button>
        </p>
      ) : null}
      <ResultStatus message={result} testId="grants-result" />
      <ProgressBar active={isLoading} label={t('grants.loading')} />
      <FormErrors messages={formErrorsOf(t, error).form} />
      <div className="admin-table-wrap">
        <table className="admin-table" data-testid="grants-table">
          <caption>{t('grants.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('grants.username')}</th>
              <th scope="col">{t('grants.role')}</th>
              <th scope="col">{t('grants.scope')}</th>
              <th scope="col">{t('grants.grantedBy')}</th>
              {canChange ? <th scope="col">{t('grants.actions')}</th> : null}
            </tr>
          </thead>
          <tbody>
            {(data?.grants ?? []).map((grant) => {
              const key = `${grant.username}|${grant.role}|${grant.partnerId ?? ''}|${grant.customerId ?? ''}`;
              return (
                <tr key={key} data-testid="grant-row">
                  <th scope="row">
                    <bdi>{grant.username}</bdi>
                  </th>
                  <td>{t(`grants.roles.${grant.role}`)}</td>
                  <td>{scopeText(grant)}</td>
                  <td>
                    <bdi>{grant.grantedBy}</bdi>{' '}
                    <time className="admin-muted" dateTime={grant.grantedAt}>
                      {formatWhen(grant.grantedAt, i18n.language)}
                    </time>
                  </td>
                  {canChange ? (
                    <td>
                      <Button
                        type="button"
                        variant="secondary"
                        aria-label={t('grants.withdrawLabel', {
                          username: grant.username,
                          role: t(`grants.roles.${grant.role}`),
                          scope: scopeText(grant),
                        })}
                        onClick={() => {
                          setResult('');
                          setDialog(grant);
                        }}
                      >
                        {t('grants.withdraw')}
                      </Button>
                    </td>
                  ) : null}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {dialog ? (
        <GrantDialog
          withdraw={dialog === 'new' ? undefined : dialog}
          onDone={(message) => {
            setDialog(undefined);
            setResult(message);
          }}
          onClose={() => setDialog(undefined)}
        />
      ) : null}
    </>
  );
}

/** `/admin/grants` (issue 52): the console's grants, given and withdrawn by platform administrators. */
export function GrantsPage() {
  return (
    <ConsoleLayout titleKey="routes.grants" permission="console.grants.read" path={ADMIN_GRANTS_PATH}>
      <Grants />
    </ConsoleLayout>
  );
}
