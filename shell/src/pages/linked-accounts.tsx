import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { linkedProvidersSchema, type EexLinkRequest, type LinkedProvider } from 'shared-contracts';
import { baseApi, useFormErrors, type RedirectFollowed } from 'shared-contracts/api';
import { Button, Card, FormErrors, Stack } from 'shared-contracts/ui';

/** `ExternalLogins`, `EexLink` and `EexUnlink` (ADR 0018): the signed-in account's external sign-in providers. */
const linkedAccountsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    externalLogins: build.query<LinkedProvider[], void>({
      query: () => ({ url: 'ExternalLogins', method: 'GET', acceptUnauthorized: true }),
      transformResponse: (body: unknown) => linkedProvidersSchema.parse(body),
      providesTags: ['Account'],
    }),
    eexLink: build.mutation<RedirectFollowed | null, EexLinkRequest>({
      query: (body) => ({ url: 'EexLink', method: 'POST', body }),
    }),
    eexUnlink: build.mutation<boolean, { vendorId: string }>({
      query: (body) => ({ url: 'EexUnlink', method: 'POST', body }),
      invalidatesTags: ['Account'],
    }),
  }),
});

const { useExternalLoginsQuery, useEexLinkMutation, useEexUnlinkMutation } = linkedAccountsApi;

// This module is imported by the account page, which the shell's routes import eagerly: the confirmation and the
// result line (shared-contracts/account-ui) load only when the card is shown, so the sign-in page's bytes stay as
// they were. The card is shown inside the security centre, whose own chunk has already loaded account-ui.
const ConfirmDialog = lazy(() =>
  import('shared-contracts/account-ui').then((m) => ({ default: m.ConfirmDialog })),
);
const ResultStatus = lazy(() =>
  import('shared-contracts/account-ui').then((m) => ({ default: m.ResultStatus })),
);

/**
 * The security centre's namespace (security-centre-strings.ts), named here rather than imported: importing that module
 * would make its locale chunks reachable from the sign-in page. The card renders inside the centre, which has loaded
 * the namespace before it shows anything.
 */
const SECURITY_CENTRE_NS = 'securityCentre';

/**
 * The account page's external accounts: each login provider of this site, linked or not, with Link (a trip to the
 * provider and back) or Unlink, confirmed first (issue 49) and its result said in the card. Both need a recent full
 * sign-in (S21); the server says so when it is not.
 */
export function LinkedAccounts() {
  const { t } = useTranslation('common');
  const { t: tc } = useTranslation(SECURITY_CENTRE_NS);
  const { data: providers = [], refetch } = useExternalLoginsQuery();
  const [link, linking] = useEexLinkMutation();
  const [unlink, unlinking] = useEexUnlinkMutation();
  const [confirming, setConfirming] = useState<LinkedProvider | undefined>(undefined);
  const [status, setStatus] = useState<string | undefined>(undefined);
  const errors = useFormErrors(linking.error ?? unlinking.error);
  if (providers.length === 0) return null;
  const doUnlink = async (provider: LinkedProvider) => {
    const result = await unlink({ vendorId: provider.vendorId });
    setConfirming(undefined);
    if ('data' in result) {
      setStatus(tc('linkedAccounts.unlinkedStatus', { name: provider.displayName }));
      void refetch();
    }
  };
  return (
    <Card>
      <section aria-labelledby="linked-accounts-heading" data-testid="linked-accounts">
        <Stack>
          <h2 id="linked-accounts-heading">{t('linkedAccounts.heading')}</h2>
          <FormErrors messages={errors.form} />
          <ul className="hr-stack hr-list-plain">
            {providers.map((provider) => (
              <li key={provider.vendorId}>
                <Stack>
                  <span>
                    {provider.linked
                      ? t('linkedAccounts.linked', { name: provider.displayName })
                      : t('linkedAccounts.notLinked', { name: provider.displayName })}
                  </span>
                  {provider.linked ? (
                    <Button
                      variant="secondary"
                      className="hr-button--danger-outline"
                      loading={unlinking.isLoading && unlinking.originalArgs?.vendorId === provider.vendorId}
                      onClick={() => setConfirming(provider)}
                    >
                      {t('linkedAccounts.unlink', { name: provider.displayName })}
                    </Button>
                  ) : (
                    <Button
                      variant="secondary"
                      loading={linking.isLoading && linking.originalArgs?.vendorId === provider.vendorId}
                      onClick={() => void link({ vendorId: provider.vendorId, returnUrl: '/account/' })}
                    >
                      {t('linkedAccounts.link', { name: provider.displayName })}
                    </Button>
                  )}
                </Stack>
              </li>
            ))}
          </ul>
          <Suspense fallback={null}>
            <ResultStatus message={status} testId="linked-accounts-status" />
            <ConfirmDialog
              open={confirming !== undefined}
              danger
              title={tc('linkedAccounts.unlinkConfirmTitle', { name: confirming?.displayName ?? '' })}
              message={tc('linkedAccounts.unlinkConfirmMessage', { name: confirming?.displayName ?? '' })}
              confirmLabel={tc('linkedAccounts.unlinkConfirm')}
              cancelLabel={tc('linkedAccounts.cancel')}
              onConfirm={() => (confirming ? doUnlink(confirming) : undefined)}
              onCancel={() => setConfirming(undefined)}
            />
          </Suspense>
        </Stack>
      </section>
    </Card>
  );
}
