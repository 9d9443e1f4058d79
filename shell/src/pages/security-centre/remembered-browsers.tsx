import { useTranslation } from 'react-i18next';
import type { SecurityCentreView } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { Button, Card, FormErrors, Stack } from 'shared-contracts/ui';
import { requestToast } from '../../events';
import { describeUserAgent, formatWhen } from './format';
import { useRecentSignIn } from './recent-sign-in';
import {
  useForgetAllRememberedBrowsersMutation,
  useForgetRememberedBrowserMutation,
} from './security-centre.api';
import { SECURITY_CENTRE_NS } from './security-centre-strings';

/**
 * Remembered browsers (issue 43, ADR 0036): the browsers that skip two-step verification for this account ("remember
 * this browser", ADR 0008), with where and when; forget one, or all (this one included). A forgotten browser asks for
 * the second factor at its next sign-in.
 */
export function RememberedBrowsersSection({ view }: { view: SecurityCentreView }) {
  const { t, i18n } = useTranslation(SECURITY_CENTRE_NS);
  const recent = useRecentSignIn();
  const [forget, forgetting] = useForgetRememberedBrowserMutation();
  const [forgetAll, forgettingAll] = useForgetAllRememberedBrowsersMutation();
  const errors = useFormErrors(forgetting.error ?? forgettingAll.error);
  const browsers = view.rememberedBrowsers;
  const one = async (id: string) => {
    const result = await forget({ id });
    if ('error' in result) return void recent.check(result.error);
    requestToast({ kind: 'success', message: t('rememberedBrowsers.forgotten') });
  };
  const all = async () => {
    const result = await forgetAll();
    if ('error' in result) return void recent.check(result.error);
    requestToast({ kind: 'success', message: t('rememberedBrowsers.allForgotten') });
  };
  return (
    <Card>
      <section aria-labelledby="remembered-browsers-heading" data-testid="remembered-browsers">
        <Stack>
          <h2 id="remembered-browsers-heading">{t('rememberedBrowsers.heading')}</h2>
          <p>{t('rememberedBrowsers.intro')}</p>
          <FormErrors messages={errors.form} />
          {browsers.length === 0 ? <p>{t('rememberedBrowsers.none')}</p> : null}
          {browsers.length > 0 ? (
            <ul className="hr-stack hr-list-plain">
              {browsers.map((browser) => {
                const agent = describeUserAgent(browser.userAgent);
                const name = agent ? t('sessions.browser', agent) : t('sessions.unknownBrowser');
                return (
                  <li key={browser.id} className="security-centre__item" data-testid="remembered-browser">
                    <span className="security-centre__item-text">
                      <strong>{name}</strong>
                      {browser.current ? (
                        <span className="security-centre__badge">
                          ({t('rememberedBrowsers.thisBrowser')})
                        </span>
                      ) : null}
                      <br />
                      {t('rememberedBrowsers.rememberedAt', {
                        date: formatWhen(browser.rememberedAt, i18n.language),
                      })}
                      {browser.ip ? (
                        <>
                          {' '}
                          <span dir="ltr">{t('sessions.from', { ip: browser.ip })}</span>
                        </>
                      ) : null}
                      <br />
                      {browser.lastUsedAt !== null
                        ? t('rememberedBrowsers.lastUsed', {
                            date: formatWhen(browser.lastUsedAt, i18n.language),
                          })
                        : t('rememberedBrowsers.neverUsed')}
                    </span>
                    <Button
                      variant="secondary"
                      loading={forgetting.isLoading && forgetting.originalArgs?.id === browser.id}
                      onClick={() => void one(browser.id)}
                    >
                      {browser.current
                        ? t('rememberedBrowsers.forgetThis')
                        : t('rememberedBrowsers.forget', { name })}
                    </Button>
                  </li>
                );
              })}
            </ul>
          ) : null}
          {browsers.length > 0 ? (
            <Button variant="secondary" loading={forgettingAll.isLoading} onClick={() => void all()}>
              {t('rememberedBrowsers.forgetAll')}
            </Button>
          ) : null}
        </Stack>
      </section>
    </Card>
  );
}
