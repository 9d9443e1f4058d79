import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useDispatch, useSelector } from 'react-redux';
import { Link } from 'react-router';
import { isRecaptcha, type CaptchaProvider, withReturnUrl } from 'shared-contracts';
import {
  isApiError,
  isCaptchaRequired,
  isRedirectFollowed,
  requestCaptcha,
  selectTimedOut,
  selectUsername,
  setTimedOut,
  setUsername,
  useFormErrors,
  useUserQuery,
  type RootState,
} from 'shared-contracts/api';
import { Alert, Button, Checkbox, FinePrint, FormErrors, Stack, TextField } from 'shared-contracts/ui';
import { linkedText } from './linked-text';
import { useLoginMutation } from './login.api';
import { hasPlatformAuthenticator } from './platform-authenticator';
import { useCapsLock } from './use-caps-lock';
import { usePasskeyAutofill } from './use-passkey-autofill';
import { useFocusOnFailure } from '../shared/use-focus-on-failure';

const NS = 'mfe-login';

/** The form-level codes of a Login that knew the username but refused the password (both read the same). */
const WRONG_PASSWORD = new Set(['invalidCredentials', 'accountDisabled']);

/** Whether Login refused the username and password together (not a missing field, a challenge or a timeout). */
function isWrongPassword(error: unknown): boolean {
  return isApiError(error) && (error.errors[''] ?? []).some((code) => WRONG_PASSWORD.has(code));
}

/** The username chip: a rounded box at the start of the line (logical properties only, right in RTL). */
const CHIP_STYLE = {
  display: 'flex',
  flexWrap: 'wrap',
  alignItems: 'center',
  alignSelf: 'start',
  gap: 'var(--hr-space-2)',
  paddingBlock: 'var(--hr-space-1)',
  paddingInline: 'var(--hr-space-3)',
  border: '1px solid var(--hr-color-border)',
  borderRadius: '999px',
  maxInlineSize: '100%',
} as const;

/** Props of {@link SignInForm}. */
export interface SignInFormProps {
  returnUrl: string;
  /** The username LoginView remembered, when the store has none. */
  rememberedUsername?: string;
  /** The partner's captcha (LoginView): which challenge shows, and whether Google's notice does (SPEC.md §2). */
  captcha?: CaptchaProvider | undefined;
  /** LoginView says the next Login needs a solved challenge: it is asked for before Login is sent. */
  captchaRequired?: boolean | undefined;
  /** Start without the remembered username ("Sign in as a different user" chosen on the signed-in choice). */
  forgetUsername?: boolean;
  /** LoginView has answered: passkey autofill may ask for its challenge now (see `usePasskeyAutofill`). */
  viewLoaded?: boolean;
}

/**
 * Username-or-email and password sign-in (SPEC.md §2 "Sign-in"). The server decides
 * the next step: a 209 is followed by the base query; a 400 fills the field and form errors.
 */
export function SignInForm({
  returnUrl,
  rememberedUsername,
  captcha,
  captchaRequired,
  forgetUsername = false,
  viewLoaded = true,
}: SignInFormProps) {
  const { t } = useTranslation(NS);
  const dispatch = useDispatch();
  const storedUsername = useSelector((state: RootState) => selectUsername(state));
  // "Not you?" (or "Sign in as a different user" before the form showed) forgets the username here and ignores the
  // one LoginView remembered.
  const [forgotten, setForgotten] = useState(forgetUsername);
  const keptUsername = forgotten ? undefined : (storedUsername ?? rememberedUsername);
  const timedOut = useSelector((state: RootState) => selectTimedOut(state));
  const { data: user } = useUserQuery({ returnUrl });
  const [username, setUsernameField] = useState(keptUsername ?? '');
  // LoginView may answer after the form showed: its remembered username fills the field unless one was typed.
  const [seenKept, setSeenKept] = useState(keptUsername);
  if (keptUsername !== seenKept) {
    setSeenKept(keptUsername);
    if (keptUsername && username === '') setUsernameField(keptUsername);
  }
  const [password, setPassword] = useState('');
  // After a wrong password the username shows as a chip (the pattern of Google, Microsoft and Auth0): only the
  // password is asked again, and "Not you?" brings the editable username field back.
  const [chip, setChip] = useState<string | undefined>(undefined);
  const chipId = useId();
  const [rememberMe, setRememberMe] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const [login, { isLoading, error, reset }] = useLoginMutation();
  // SPEC.md §7: Login ignores empty failures (an empty 500; the timed-out 400, which the warning above explains).
  const errors = useFormErrors(error, { ignoreEmpty: true });
  // A failed attempt puts focus on the first invalid field, or, after a wrong password, on the emptied password
  // field (the form's message, a fresh alert, is read out), or else on the form's message.
  const formRef = useFocusOnFailure<HTMLFormElement>(
    error,
    isWrongPassword(error) ? 'input[name="password"]' : undefined,
  );
  const caps = useCapsLock();
  // A password sign-in under way (from the submit until its answer failed): passkey autofill stays off meanwhile.
  // Its AssertionOptions, answered after Login had replaced the session (S24), started a fresh anonymous session
  // whose cookie won over the signed-in one (seen with Enter pressed before the app took over).
  const [signingIn, setSigningIn] = useState(false);
  // The username field's autofill list also offers this site's passkeys; picking one signs in (ADR 0016).
  const autofill = usePasskeyAutofill(returnUrl, viewLoaded && !signingIn);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    dispatch(setTimedOut(false));
    dispatch(setUsername(username.trim() || undefined));
    setForgotten(false);
    // The server decides when a challenge is due (SPEC.md §4 "Captcha"): up front when LoginView said so, or when
    // Login answers `captchaRequired`. The shell shows it; once solved, its callback sends Login again.
    const ask = () => {
      setSigningIn(false);
      requestCaptcha(dispatch, { action: 'login', provider: captcha, onSolved: () => void send() });
    };
    const send = async () => {
      setSigningIn(true);
      const platformAuthenticator = await hasPlatformAuthenticator();
      const result = await login({ username, password, rememberMe, returnUrl, platformAuthenticator });
      if ('error' in result) setSigningIn(false);
      if ('error' in result && isWrongPassword(result.error)) {
        setChip(username.trim());
        setPassword('');
      }
      if ('error' in result && isCaptchaRequired(result.error)) return ask();
      // A 200 without a step change should not happen; fall back to the returnUrl through the safe redirect page.
      if ('data' in result && !isRedirectFollowed(result.data)) {
        window.location.assign(withReturnUrl('/redirect', returnUrl));
      }
    };
    if (captchaRequired) ask();
    else await send();
  };

  // "Not you?": the chip goes, the username field comes back empty and takes the focus (autoFocus on its mount).
  const notYou = () => {
    setChip(undefined);
    setForgotten(true);
    dispatch(setUsername(undefined));
    setUsernameField('');
    setPassword('');
    reset();
  };

  // Login's own empty 400 (SPEC.md §4): the session this page was using lapsed while it stood open. The shared flag
  // is set only after a sign-in or a signed-in session in this tab (not for a step page opened cold), so the form
  // also reads its own answer.
  const ownLapse = isApiError(error) && error.status === 400 && Object.keys(error.errors).length === 0;
  const showTimedOut = (timedOut || ownLapse) && user?.isAuthenticated !== true;

  return (
    // method="post": before the app takes over (first HTML) or without scripts, a submit must never put the
    // password in the address; the gateway answers a POST to a page with a redirect back to it.
    <form ref={formRef} method="post" onSubmit={(event) => void onSubmit(event)} noValidate>
      <Stack>
        {showTimedOut ? <Alert kind="warning">{t('errors:sessionTimedOut')}</Alert> : null}
        <FormErrors messages={errors.form} />
        {autofill.failed && !error ? <Alert kind="error">{t('errors:secureSignInFailed')}</Alert> : null}
        {chip ? (
          <div role="group" aria-label={t('login.usernameLabel')} className="hr-chip" style={CHIP_STYLE}>
            {/* bdi: a username keeps its own direction inside a right-to-left page. */}
            <bdi id={chipId} data-testid="username-chip" style={{ overflowWrap: 'anywhere' }}>
              {chip}
            </bdi>
            <Button variant="link" aria-describedby={chipId} onClick={notYou}>
              {t('login.notYou')}
            </Button>
            {/* Password managers still pair the password with its username. */}
            <input type="text" name="username" autoComplete="username" value={chip} readOnly hidden />
          </div>
        ) : (
          <TextField
            label={t('login.usernameLabel')}
            name="username"
            // "webauthn": the browser lists passkeys beside saved usernames (conditional mediation).
            autoComplete="username webauthn"
            autoCapitalize="none"
            spellCheck={false}
            value={username}
            onChange={(event) => setUsernameField(event.target.value)}
            errors={errors.field('username')}
            required
            autoFocus={!keptUsername}
          />
        )}
        <TextField
          label={t('login.passwordLabel')}
          name="password"
          type={showPassword ? 'text' : 'password'}
          action={
            <Button
              variant="secondary"
              aria-label={showPassword ? t('login.hidePasswordLabel') : t('login.showPasswordLabel')}
              onClick={() => setShowPassword((shown) => !shown)}
            >
              {showPassword ? t('login.hidePassword') : t('login.showPassword')}
            </Button>
          }
          autoComplete="current-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
          onKeyDown={caps.onKeyDown}
          onKeyUp={caps.onKeyUp}
          errors={errors.field('password')}
          warning={caps.capsLock ? t('login.capsLockOn') : ''}
          required
          autoFocus={Boolean(keptUsername)}
        />
        <Checkbox
          label={t('login.rememberMe')}
          name="rememberMe"
          checked={rememberMe}
          onChange={(event) => setRememberMe(event.target.checked)}
        />
        <Button type="submit" loading={isLoading}>
          {isLoading ? t('login.signingIn') : t('login.submit')}
        </Button>
        <Link to={withReturnUrl('/account/recover', returnUrl)}>{t('login.forgotPassword')}</Link>
        {/* The passkey ceremony lives on its own page (mfe-devices): its code loads only when chosen. */}
        <Link to={withReturnUrl('/account/login/secure', returnUrl)}>{t('login.passkey')}</Link>
        {/* One-time-token sign-in (ADR 0019): a mailed code or link instead of the password. */}
        <Link to={withReturnUrl('/account/login/ott', returnUrl)}>{t('login.oneTimeCode')}</Link>
        {isRecaptcha(captcha) ? (
          <FinePrint>
            {linkedText(t('login.recaptchaNotice'), {
              privacy: (label) => (
                <a href="https://policies.google.com/privacy" target="_blank" rel="noopener noreferrer">
                  {label}
                </a>
              ),
              terms: (label) => (
                <a href="https://policies.google.com/terms" target="_blank" rel="noopener noreferrer">
                  {label}
                </a>
              ),
            })}
          </FinePrint>
        ) : null}
      </Stack>
    </form>
  );
}
