import type { Response } from 'express';
import { customerSelectionStep } from '../identity/customers/customer-selection.step.js';
import { twoFactorSetupStep } from '../identity/two-factor/two-factor-setup.step.js';
import { twoFactorStep } from '../identity/two-factor/two-factor.step.js';
import { expiredPasswordStep } from '../identity/recovery/expired-password.step.js';
import type { SessionAuthService, SignedInAccountInfo } from '../identity/session/session-auth.service.js';
import type { CallOf, CallOutsideSignIn, StepId } from '../identity/sign-in/sign-in-step.js';
import { passkeyOfferStep } from '../identity/passkeys/passkey-offer.step.js';
import type { Session } from '../infra/sessions/session-manager.js';
import { CONSOLE_CALLS, type ConsoleGrant, type ConsolePermissionName } from 'shared-contracts/console';

/**
 * Who may call what (issue 50, ADR 0052): every account API call of SPEC.md §7 declares its caller here, in one
 * table, composed from a few policies in the manner of node-oidc-provider's checks and Logto's guards. One
 * middleware enforces the table before any router runs (`http/access-guard.ts`) and hands the handler the
 * resolved caller ({@link callerOf}); routers only translate HTTP. The request and answer schemas of the calls
 * live in shared-contracts (`shared-contracts/src/api/*`), the step declarations in their flow folders.
 */

/** The kinds of object a call names by id (the body's `id`), each with its owner lookup (`ObjectOwners`). */
export type ObjectKind = 'passkey' | 'session';

/** Anyone: the call decides on its own terms (its throttle, its captcha, its token). */
export interface Anyone {
  readonly kind: 'anyone';
}
/** A live pending sign-in waiting at one of `steps`; anyone else starts again at the sign-in page (S3, S20). */
export interface PendingSignInAt {
  readonly kind: 'pendingSignInAt';
  readonly steps: readonly StepId[];
}
/** A signed-in account (401 `notAuthenticated` otherwise; a pending sign-in is not signed in: S20). */
export interface SignedIn {
  readonly kind: 'signedIn';
}
/** A signed-in account whose full sign-in is recent (S21, ADR 0036): 403 `recentSignInRequired` otherwise. */
export interface SignedInRecently {
  readonly kind: 'signedInRecently';
}
/** As `as`, and the body's `id` names an object of `object`'s kind of the caller's own (404 `notFound`). */
export interface OwnerOf {
  readonly kind: 'ownerOf';
  readonly object: ObjectKind;
  readonly as: SignedIn | SignedInRecently;
}
/**
 * A pending sign-in at one of `steps`, or the signed-in account changing its own settings (recently, when
 * `recently`); anyone else starts again at the sign-in page. Without `vendors`, a vendor account is refused with
 * 400 `vendorCredentialsOnly` (ADR 0041: it adds no way in of its own).
 */
export interface StepOrSignedIn {
  readonly kind: 'stepOrSignedIn';
  readonly steps: readonly StepId[];
  readonly recently: boolean;
  readonly vendors: boolean;
}
/** Where a console permission must apply: everywhere (releases, partners) or within the grant's partner or customer. */
export type ConsoleScope = 'all' | 'partner' | 'customer';
/**
 * The operators' console (issue 51, ADR 0058): a signed-in account with a second factor or a passkey whose console
 * grants give `permission` over `scope` (403 `forbidden` otherwise); with `recently`, its full sign-in must also be
 * recent (403 `recentSignInRequired`: the "Confirm it's you" dialog).
 */
export interface ConsolePermission {
  readonly kind: 'consolePermission';
  readonly permission: ConsolePermissionName;
  readonly scope: ConsoleScope;
  readonly recently: boolean;
}

/** Who may call a call. */
export type Policy =
  Anyone | PendingSignInAt | SignedIn | SignedInRecently | OwnerOf | StepOrSignedIn | ConsolePermission;

export const anyone: Anyone = { kind: 'anyone' };
export const signedIn: SignedIn = { kind: 'signedIn' };
export const signedInRecently: SignedInRecently = { kind: 'signedInRecently' };
export function pendingSignInAt(...steps: StepId[]): PendingSignInAt {
  return { kind: 'pendingSignInAt', steps };
}
export function ownerOf(object: ObjectKind, as: SignedIn | SignedInRecently = signedInRecently): OwnerOf {
  return { kind: 'ownerOf', object, as };
}
export function consolePermission(
  permission: ConsolePermissionName,
  options: { scope?: ConsoleScope; recently: boolean },
): ConsolePermission {
  return { kind: 'consolePermission', permission, scope: options.scope ?? 'all', recently: options.recently };
}
export function stepOrSignedIn(
  steps: StepId[],
  options: { recently: boolean; vendors?: boolean },
): StepOrSignedIn {
  return { kind: 'stepOrSignedIn', steps, recently: options.recently, vendors: options.vendors ?? false };
}

/** The calls of the sign-in steps, as their declarations list them. */
export type StepCallName =
  | CallOf<typeof expiredPasswordStep>
  | CallOf<typeof twoFactorStep>
  | CallOf<typeof twoFactorSetupStep>
  | CallOf<typeof passkeyOfferStep>
  | CallOf<typeof customerSelectionStep>;

/** The calls that belong to no step and are refused while a sign-in is pending (the gate's deny by default). */
export const SIGNED_IN_OR_ANONYMOUS_CALLS = [
  'Applications',
  'ProfileImage',
  'SilentLogin',
  'CaptchaChallenge',
  'VerifyCaptcha',
  'Recover',
  'ResetPassword',
  'ExternalUser',
  'Link',
  'Next',
  'EexLink',
  'ExternalLogins',
  'EexUnlink',
  'UpstreamLogout',
  'Devices',
  'RenameDevice',
  'RemoveDevice',
  'SecurityCentreView',
  'RemoveTwoStepMethod',
  'SetDefaultTwoStepMethod',
  'RenamePasskey',
  'DeletePasskey',
  'RegenerateRecoveryCodes',
  'ChangePassword',
  'SignOutSession',
  'SignOutOtherSessions',
  'ForgetRememberedBrowser',
  'ForgetAllRememberedBrowsers',
  'UpdateProfile',
  'RequestEmailChange',
  'ConfirmEmailChange',
  'ConfirmItsYouView',
  'ConfirmItsYou',
  'ConfirmItsYouSecondFactor',
  'ConfirmItsYouSendCode',
  'SignInAgain',
] as const;

/** Every call of the account API (SPEC.md §7). A name here without a row in the table fails the type check. */
export type AccountCallName =
  | StepCallName
  | CallOutsideSignIn
  | (typeof SIGNED_IN_OR_ANONYMOUS_CALLS)[number]
  | (typeof CONSOLE_CALLS)[number];

/** The set-up wizard's calls: the set-up step of a sign-in, or the account itself with a recent sign-in (S21). */
const setUpTwoFactor = stepOrSignedIn([twoFactorSetupStep.id], { recently: true });
/** Registering a passkey: the passkey offer of a sign-in, or the account itself with a recent sign-in (S21). */
const registerPasskey = stepOrSignedIn([passkeyOfferStep.id], { recently: true });
/** Reading the releases page (release managers, platform administrators). */
const readReleases = consolePermission('console.releases.read', { recently: false });
/** Changing a release: every change of the console needs a recent sign-in ("Confirm it's you"). */
const changeReleases = consolePermission('console.releases.change', { recently: true });
/** Reading people (issue 52): any grant holding it; the handler narrows to the caller's partner or customers. */
const readPeople = consolePermission('console.people.read', { scope: 'customer', recently: false });
/** Helping a person: as reading, with a recent sign-in. */
const changePeople = consolePermission('console.people.change', { scope: 'customer', recently: true });
const readPartners = consolePermission('console.partners.read', { recently: false });
const changePartners = consolePermission('console.partners.change', { recently: true });
const readApplications = consolePermission('console.applications.read', { recently: false });
const changeApplications = consolePermission('console.applications.change', { recently: true });
const readGrants = consolePermission('console.grants.read', { recently: false });
const changeGrants = consolePermission('console.grants.change', { recently: true });
/** Audit search: platform administrators everywhere, support within its partner (the handler narrows). */
const readAudit = consolePermission('console.audit.read', { scope: 'partner', recently: false });
/** Choosing a customer: the customer step of a sign-in, or the account switching customer (ADR 0009). */
const chooseCustomer = stepOrSignedIn([customerSelectionStep.id], { recently: false, vendors: true });

/**
 * THE table: each call's policy. `satisfies` makes a missing call and an unknown one fail the type check; the
 * generated access test (`http/access.test.ts`) tries every row with callers who must be refused.
 */
export const ACCOUNT_CALL_ACCESS = {
  // Session plumbing and page chrome: the session itself is what they are about.
  Antiforgery: anyone,
  Exchange: anyone,
  User: anyone,
  Applications: anyone,
  ProfileImage: signedIn,
  LocalAllowed: anyone,
  IsRemoteAuthentication: anyone,
  SetLanguage: anyone,
  GetPartnerMetaData: anyone,
  GetPartnerLogo: anyone,
  SystemStatus: anyone,
  Error: anyone,
  CaptchaChallenge: anyone,
  VerifyCaptcha: anyone,
  // Signing in and out: each starts over (or ends whatever the session holds).
  LoginView: anyone,
  Login: anyone,
  SilentLogin: anyone,
  LogoutView: anyone,
  Logout: anyone,
  SilentLogout: anyone,
  AssertionOptions: anyone,
  SecureLogin: anyone,
  // SendOTP is two things told apart by the body (ADR 0019): without a `username`, the 2FA step's SMS resend (here);
  // with one, the one-time-token page's mail, which starts a sign-in over: anyone (BY_BODY below).
  SendOTP: pendingSignInAt(twoFactorStep.id),
  LoginWithOTT: anyone,
  VendorLoginView: anyone,
  VendorLogin: anyone,
  ExternalUser: anyone,
  Link: anyone,
  Next: anyone,
  UpstreamLogout: anyone,
  // Recovery: the mailed token is the proof (the reset page's PasswordRules too).
  Recover: anyone,
  ResetPassword: anyone,
  PasswordRules: anyone,
  ChangeExpiredPassword: pendingSignInAt(expiredPasswordStep.id),
  // The second factor at sign-in.
  LoginWith2FAView: pendingSignInAt(twoFactorStep.id),
  LoginWith2FA: pendingSignInAt(twoFactorStep.id),
  LoginWithRecoveryCodeView: pendingSignInAt(twoFactorStep.id),
  LoginWithRecoveryCode: pendingSignInAt(twoFactorStep.id),
  // The mailed PIN: the 2FA page's pending sign-in, or the wizard's caller.
  GeneratePin: stepOrSignedIn([twoFactorStep.id, twoFactorSetupStep.id], { recently: true }),
  PinReference: stepOrSignedIn([twoFactorStep.id, twoFactorSetupStep.id], { recently: true }),
  Setup2FAView: setUpTwoFactor,
  Validate2faSetupCode: setUpTwoFactor,
  GeneratePhoneVerification: setUpTwoFactor,
  EnableTwoFactor: setUpTwoFactor,
  RedeemRecoveryCode: setUpTwoFactor,
  RedeemState: setUpTwoFactor,
  // Passkeys.
  CredentialOptions: registerPasskey,
  RegisterCredential: registerPasskey,
  SkipFido: registerPasskey,
  Devices: signedIn,
  RenameDevice: ownerOf('passkey'),
  RemoveDevice: ownerOf('passkey'),
  // Customers.
  SelectCustomerView: chooseCustomer,
  Customers: chooseCustomer,
  SelectCustomer: chooseCustomer,
  // Linked upstream accounts (ADR 0018).
  ExternalLogins: signedIn,
  EexLink: stepOrSignedIn([], { recently: true }),
  EexUnlink: stepOrSignedIn([], { recently: true }),
  // The security centre (ADR 0036) and "Confirm it's you" (ADR 0045).
  SecurityCentreView: signedIn,
  RemoveTwoStepMethod: signedInRecently,
  SetDefaultTwoStepMethod: signedInRecently,
  RenamePasskey: ownerOf('passkey'),
  DeletePasskey: ownerOf('passkey'),
  RegenerateRecoveryCodes: signedInRecently,
  ChangePassword: signedInRecently,
  SignOutSession: ownerOf('session'),
  SignOutOtherSessions: signedInRecently,
  // A handle of another account's browser forgets nothing: the service's removal is scoped to the account (404).
  ForgetRememberedBrowser: signedInRecently,
  ForgetAllRememberedBrowsers: signedInRecently,
  UpdateProfile: signedInRecently,
  RequestEmailChange: signedInRecently,
  // Opening the mailed link needs the signed-in account, not a recent sign-in: the request had one.
  ConfirmEmailChange: signedIn,
  ConfirmItsYouView: signedIn,
  ConfirmItsYou: signedIn,
  ConfirmItsYouSecondFactor: signedIn,
  ConfirmItsYouSendCode: signedIn,
  SignInAgain: signedIn,
  ConsoleAccess: signedIn,
  Releases: readReleases,
  ReleaseHealth: readReleases,
  ReleaseHistory: readReleases,
  StartCanary: changeReleases,
  EndCanary: changeReleases,
  PromoteRelease: changeReleases,
  RollBackRelease: changeReleases,
  SetCanaryGuard: changeReleases,
  ConsolePeople: readPeople,
  ConsolePerson: readPeople,
  DisablePerson: changePeople,
  EnablePerson: changePeople,
  EndPersonSessions: changePeople,
  ResetPersonSecondFactor: changePeople,
  SendPersonPasswordReset: changePeople,
  RequirePersonTwoStep: changePeople,
  ClearPersonThrottle: changePeople,
  AddPersonMembership: changePeople,
  RemovePersonMembership: changePeople,
  ConsolePartners: readPartners,
  ConsolePartner: readPartners,
  UpdatePartner: changePartners,
  UploadPartnerLogo: changePartners,
  ConsoleApplications: readApplications,
  CreateApplication: changeApplications,
  UpdateApplication: changeApplications,
  DisableApplication: changeApplications,
  RotateApplicationSecret: changeApplications,
  ConsoleUpstreams: readApplications,
  CreateUpstream: changeApplications,
  UpdateUpstream: changeApplications,
  DisableUpstream: changeApplications,
  ConsoleGrants: readGrants,
  GrantConsoleRole: changeGrants,
  WithdrawConsoleRole: changeGrants,
  ConsoleAudit: readAudit,
  ConsoleAuditExport: readAudit,
  AuditRetention: readAudit,
  SetAuditRetention: consolePermission('console.audit.settings', { recently: true }),
  ImportCustomers: consolePermission('console.import', { recently: true }),
} as const satisfies Record<AccountCallName, Policy>;

/** The table's policy of a call. */
export type PolicyOf<C extends AccountCallName> = (typeof ACCOUNT_CALL_ACCESS)[C];

/** An account as identity hands it out (the store's user). */
export type User = NonNullable<Awaited<ReturnType<SessionAuthService['signedInUser']>>>['user'];

/** Anyone: nothing was looked up for the call. */
export interface AnyCaller {
  kind: 'anyone';
}
/** The pending sign-in at `step`, with its (enabled) user. */
export interface PendingCaller {
  kind: 'pending';
  session: Session;
  user: User;
  step: StepId;
}
/** The signed-in account of the session. */
export interface AccountCaller {
  kind: 'account';
  session: Session;
  user: User;
  info: SignedInAccountInfo;
}
/**
 * An operator of the console: a signed-in account with a second factor or a passkey, and its console grants (the
 * guard checked the call's permission and scope against them; a handler narrows by scope from `grants`).
 */
export interface OperatorCaller {
  kind: 'operator';
  session: Session;
  user: User;
  info: SignedInAccountInfo;
  grants: readonly ConsoleGrant[];
}
/** Whoever the guard let through. */
export type Caller = AnyCaller | PendingCaller | AccountCaller | OperatorCaller;

/** The caller a policy lets through. */
export type CallerOf<P extends Policy> = P extends Anyone
  ? AnyCaller
  : P extends PendingSignInAt
    ? PendingCaller
    : P extends StepOrSignedIn
      ? PendingCaller | AccountCaller
      : P extends ConsolePermission
        ? OperatorCaller
        : AccountCaller;

/** The caller of `call`, as the table types it. */
export type CallerOfCall<C extends AccountCallName> = CallerOf<PolicyOf<C>>;

const CALLER = 'accessCaller';

/** Records the resolved caller for the handler (the guard only). */
export function setCaller(res: Response, caller: Caller): void {
  (res.locals as Record<string, unknown>)[CALLER] = caller;
}

/**
 * The caller the guard resolved for `call` (typed by the table). Throws when the guard did not run for this
 * request: a route outside the account API's guard has no caller to read.
 */
export function callerOf<C extends AccountCallName>(res: Response, call: C): CallerOfCall<C> {
  const caller = (res.locals as Record<string, unknown>)[CALLER] as Caller | undefined;
  if (!caller) throw new Error(`${call}: no caller resolved (is the access guard mounted?)`);
  return caller as CallerOfCall<C>;
}

/**
 * Whether a `SendOTP` body is the one-time-token page's mail request (it names the `username` to mail a code to)
 * rather than the 2FA step's SMS resend (ADR 0019): the one test of both the guard and the router.
 */
export function isOneTimeTokenMailRequest(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && 'username' in body;
}

/**
 * Calls SPEC.md names once for two things, told apart by the body: when `when` holds for a request's body, its
 * caller is `policy` instead of the table's row. Only `SendOTP` (ADR 0019).
 */
const BY_BODY: Partial<Record<AccountCallName, { when: (body: unknown) => boolean; policy: Policy }>> = {
  SendOTP: { when: isOneTimeTokenMailRequest, policy: anyone },
};

/**
 * The policy of a call by its name as requested (case-insensitive) and its parsed body, or undefined for a name of
 * no call.
 */
export function policyOfRequested(name: string, body?: unknown): Policy | undefined {
  const variant = BODY_VARIANTS.get(name.toLowerCase());
  if (variant?.when(body)) return variant.policy;
  return POLICIES.get(name.toLowerCase());
}

const BODY_VARIANTS = new Map(
  Object.entries(BY_BODY).map(([call, variant]) => [call.toLowerCase(), variant]),
);

const POLICIES = new Map<string, Policy>(
  Object.entries(ACCOUNT_CALL_ACCESS).map(([call, policy]) => [call.toLowerCase(), policy]),
);
