import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SecurityCentreView } from 'shared-contracts';
import { useFormErrors } from 'shared-contracts/api';
import { ConfirmDialog, ResultStatus, useFocusAfterRemoval } from 'shared-contracts/account-ui';
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
 * the second factor at its next sign-in. Both are confirmed first (issue 49), naming the browser or the count, and the
 * result is shown in the card as well as in the toast.
 */
export function RememberedBrowsersSection({ view }: { view: SecurityCentreView }) {
  const { t, i18n } = useTranslation(SECURITY_CENTRE_NS);
  const recent = useRecentSignIn();
  const [forget, forgetting] = useForgetRememberedBrowserMutation();
  const [forgetAll, forgettingAll] = useForgetAllRememberedBrowsersMutation();
  const errors = useFormErrors(forgetting.error ?? forgettingAll.error);
  const browsers = view.rememberedBrowsers;
  /** The browser whose Forget was pressed (its id and shown name), or 'all', awaiting confirmation. */
  const [confirming, setConfirming] = useState<{ id: string; name: string; current: boolean } | 'all'>();
  const [status, setStatus] = useState<string | undefined>(undefined);
  const [heading, removed] = useFocusAfterRemoval<HTMLHeadingElement>(browsers.map((b) => b.id));
  const one = async (id: string) => {
    const result = await forget({ id });
    setConfirming(undefined);
    if ('error' in result) return void recent.check(result.error);
    removed(id);
    setStatus(t('rememberedBrowsers.forgotten'));
    requestToast({ kind: 'success', message: t('rememberedBrowsers.forgotten') });
  };
  const all = async () => {
    const result = await forgetAll();
    setConfirming(undefined);
    if ('error' in result) return void recent.check(result.error);
    removed(browsers[0]?.id ?? '');
    setStatus(t('rememberedBrowsers.allForgotten'));
    requestToast({ kind: 'success', message: t('rememberedBrowsers.allForgotten') });
  };
  const nameOf = (browser: (typeof browsers)[number]) => {
    const agent = describeUserAgent(browser.userAgent);
    return agent ? t('sessions.browser', agent) : t('sessions.unknownBrowser');
  };
  return (
    <Card>
      <section aria-labelledby="remembered-browsers-heading" data-testid="remembered-browsers">
        <Stack>
          <h2 id="remembered-browsers-heading" ref={heading} tabIndex={-1}>
            {t('rememberedBrowsers.heading')}
          </h2>
          <p>{t('rememberedBrowsers.intro')}</p>
          <FormErrors messages={errors.form} />
          {browsers.length === 0 ? <p>{t('rememberedBrowsers.none')}</p> : null}
          {browsers.length > 0 ? (
            <ul className="hr-stack hr-list-plain">
              {browsers.map((browser) => {
                const name = nameOf(browser);
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
                      className="hr-button--danger-outline"
                      loading={forgetting.isLoading && forgetting.originalArgs?.id === browser.id}
                      onClick={() => setConfirming({ id: browser.id, name, current: browser.current })}
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
            <Button
              variant="secondary"
              className="hr-button--danger-outline"
              loading={forgettingAll.isLoading}
              onClick={() => setConfirming('all')}
            >
              {t('rememberedBrowsers.forgetAll')}
            </Button>
          ) : null}
          <ResultStatus message={status} testId="remembered-browsers-status" />
          <ConfirmDialog
            open={confirming !== undefined}
            danger
            title={
              confirming === 'all'
                ? t('rememberedBrowsers.forgetAllConfirmTitle', { count: browsers.length })
                : confirming?.current
                  ? t('rememberedBrowsers.forgetThisConfirmTitle')
                  : t('rememberedBrowsers.forgetConfirmTitle', { name: confirming?.name ?? '' })
            }
            message={
              confirming === 'all'
                ? t('rememberedBrowsers.forgetAllConfirmMessage')
                : t('rememberedBrowsers.forgetConfirmMessage')
            }
            confirmLabel={
              confirming === 'all'
                ? t('rememberedBrowsers.forgetAllConfirm')
                : t('rememberedBrowsers.forgetConfirm')
            }
            cancelLabel={t('rememberedBrowsers.cancel')}
            onConfirm={() => (confirming === 'all' ? all() : confirming ? one(confirming.id) : undefined)}
            onCancel={() => setConfirming(undefined)}
          />
        </Stack>
      </section>
    </Card>
  );
}
