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

/**
 * The account page's external accounts: each login provider of this site, linked or not, with Link (a trip to the
 * provider and back) or Unlink. Both need a recent full sign-in (S21); the server says so when it is not.
 */
export function LinkedAccounts() {
  const { t } = useTranslation('common');
  const { data: providers = [], refetch } = useExternalLoginsQuery();
  const [link, linking] = useEexLinkMutation();
  const [unlink, unlinking] = useEexUnlinkMutation();
  const errors = useFormErrors(linking.error ?? unlinking.error);
  if (providers.length === 0) return null;
  return (
    <Card>
      <section aria-labelledby="linked-accounts-heading">
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
                      loading={unlinking.isLoading && unlinking.originalArgs?.vendorId === provider.vendorId}
                      onClick={() =>
                        void unlink({ vendorId: provider.vendorId }).then((result) => {
                          if ('data' in result) void refetch();
                        })
                      }
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
        </Stack>
      </section>
    </Card>
  );
}
