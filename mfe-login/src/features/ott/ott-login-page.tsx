import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router';
import { OTT_CODE_LENGTH, returnUrlOf, type OttRequested, withReturnUrl } from 'shared-contracts';
import {
  isCaptchaRequired,
  isRedirectFollowed,
  requestCaptcha,
  selectUsername,
  setUsername,
  useFormErrors,
  type RootState,
} from 'shared-contracts/api';
import { Alert, Button, Card, FormErrors, Page, Stack, TextField } from 'shared-contracts/ui';
import { useLoginWithOttMutation, useSendSignInCodeMutation } from './ott.api';
import { useFocusOnFailure } from '../shared/use-focus-on-failure';

const NS = 'mfe-login';

/**
 * `/account/login/ott` (SPEC.md §2 "Sign in with One-Time Token", shown as "One-time sign-in code"; ADR 0019). The
 * user gives a username or email address; `SendOTP` mails a code and a link and answers the same for every login
 * (S10), so the page says the same neutral notice and then asks for the code (`LoginWithOTT {code}`). The mailed link leads here with `?token=`: the
 * page takes the token out of the address bar and posts it once (`LoginWithOTT {token}`). Either way the server's
 * 209 goes on to the next sign-in step (the second factor still applies) or to the returnUrl.
 */
export function OttLoginPage() {
  const { t } = useTranslation(NS);
  const dispatch = useDispatch();
  const [search] = useSearchParams();
  const location = useLocation();
  const navigate = useNavigate();
  const returnUrl = returnUrlOf(search);
  // Only a returnUrl the page was given is sent: without one, the server keeps the one SendOTP was given.
  const givenReturnUrl = search.has('returnUrl') || search.has('ReturnUrl') ? returnUrl : undefined;
  const [linkToken] = useState(() => search.get('token') ?? '');

  const storedUsername = useSelector((state: RootState) => selectUsername(state));
  const [username, setUsernameField] = useState(storedUsername ?? '');
  const [code, setCode] = useState('');
  const [requested, setRequested] = useState<OttRequested | undefined>(undefined);
  const [sendCode, sending] = useSendSignInCodeMutation();
  const [loginWithOtt, signingIn] = useLoginWithOttMutation();
  const sendErrors = useFormErrors(sending.error);
  // SPEC.md §7: vendor and one-time-token login ignore empty failures (no raw "Internal Server Error").
  const signInErrors = useFormErrors(signingIn.error, { ignoreEmpty: true });
  const askRef = useFocusOnFailure<HTMLFormElement>(sending.error);
  const codeRef = useFocusOnFailure<HTMLFormElement>(signingIn.error);

  // The token leaves the address bar (and the history entry) at once: no Referer, no shoulder, no back button keeps
  // it (S16). A replace, so Back does not post it again.
  useEffect(() => {
    if (!search.has('token')) return;
    const rest = new URLSearchParams(search);
    rest.delete('token');
    const query = rest.toString();
    void navigate({ pathname: location.pathname, search: query ? `?${query}` : '' }, { replace: true });
  }, [search, location.pathname, navigate]);

  // The link's token is posted once (a ref, so a re-render or React's development double effect does not post it
  // twice: the second would meet a spent token).
  const postedLink = useRef(false);
  useEffect(() => {
    if (linkToken === '' || postedLink.current) return;
    postedLink.current = true;
    void loginWithOtt({ token: linkToken, ...(givenReturnUrl ? { returnUrl: givenReturnUrl } : {}) }).then(
      (result) => {
        if ('data' in result && !isRedirectFollowed(result.data))
          window.location.assign(withReturnUrl('/redirect', returnUrl));
      },
    );
  }, [linkToken, loginWithOtt, givenReturnUrl, returnUrl]);

  const onAsk = async (event?: FormEvent<HTMLFormElement>) => {
    event?.preventDefault();
    const login = username.trim();
    dispatch(setUsername(login || undefined));
    const send = async (): Promise<void> => {
      const result = await sendCode({ username: login, returnUrl });
      // After a few requests from one source the server wants a solved challenge (SPEC.md §4 "Captcha"): the shell
      // shows it and, once solved, SendOTP is sent again.
      if ('error' in result && isCaptchaRequired(result.error))
        return requestCaptcha(dispatch, { action: 'sendOtp', onSolved: () => void send() });
      if ('data' in result && result.data) {
        setCode('');
        signingIn.reset();
        setRequested(result.data);
      }
    };
    await send();
  };

  const onCode = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = await loginWithOtt({ code, ...(givenReturnUrl ? { returnUrl: givenReturnUrl } : {}) });
    // A 200 without a step change should not happen; fall back to the returnUrl through the safe redirect page.
    if ('data' in result && !isRedirectFollowed(result.data))
      window.location.assign(withReturnUrl('/redirect', returnUrl));
  };

  const backToSignIn = (
    <Link to={withReturnUrl('/account/login', returnUrl)}>{t('common.backToSignIn')}</Link>
  );

  // Following the link: one request, then the next step; only a refusal shows anything more.
  if (
    linkToken !== '' &&
    !requested &&
    (signingIn.isLoading || signingIn.isUninitialized || signingIn.isSuccess)
  ) {
    return (
      <Page title={t('routes.loginOtt')} pageId="login-ott">
        <Card>
          <p role="status">{t('ott.linkSigningIn')}</p>
        </Card>
      </Page>
    );
  }

  return (
    <Page title={t('routes.loginOtt')} pageId="login-ott">
      <Card>
        {requested ? (
          // Keyed: the two forms never share elements, so the code field mounts afresh and takes the focus.
          <form key="code" ref={codeRef} method="post" onSubmit={(event) => void onCode(event)} noValidate>
            <Stack>
              <Alert kind="success">{t('ott.sentNotice', { minutes: requested.expiresInMinutes })}</Alert>
              <FormErrors messages={signInErrors.form} />
              <TextField
                label={t('ott.codeLabel')}
                hint={t('ott.codeHint', { length: requested.codeLength })}
                name="code"
                inputMode="numeric"
                autoComplete="one-time-code"
                autoCapitalize="none"
                spellCheck={false}
                value={code}
                onChange={(event) => setCode(event.target.value)}
                errors={signInErrors.field('code')}
                required
                autoFocus
              />
              <Button type="submit" loading={signingIn.isLoading}>
                {signingIn.isLoading ? t('ott.signingIn') : t('ott.submit')}
              </Button>
              <p>{t('ott.sameBrowser')}</p>
              <Button variant="secondary" loading={sending.isLoading} onClick={() => void onAsk()}>
                {t('ott.resend')}
              </Button>
              <Button variant="link" onClick={() => setRequested(undefined)}>
                {t('ott.otherUser')}
              </Button>
              {backToSignIn}
            </Stack>
          </form>
        ) : (
          <form key="ask" ref={askRef} method="post" onSubmit={(event) => void onAsk(event)} noValidate>
            <Stack>
              {/* A refused link says why (spent, expired, another browser); the form asks for a new code. */}
              <FormErrors messages={[...signInErrors.form, ...signInErrors.field('code')]} />
              <p>{t('ott.intro', { length: OTT_CODE_LENGTH })}</p>
              <FormErrors messages={sendErrors.form} />
              <TextField
                label={t('login.usernameLabel')}
                name="username"
                autoComplete="username"
                autoCapitalize="none"
                spellCheck={false}
                value={username}
                onChange={(event) => setUsernameField(event.target.value)}
                errors={sendErrors.field('username')}
                required
                autoFocus
              />
              <Button type="submit" loading={sending.isLoading}>
                {sending.isLoading ? t('ott.sending') : t('ott.send')}
              </Button>
              {backToSignIn}
            </Stack>
          </form>
        )}
      </Card>
    </Page>
  );
}
