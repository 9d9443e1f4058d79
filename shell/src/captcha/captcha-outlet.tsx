import { useSelector } from 'react-redux';
import { selectCaptchaInProgress, type RootState } from 'shared-contracts/api';
import { onDemand } from '../platform/on-demand.js';
import { CaptchaUnavailable } from './captcha-unavailable.js';

// The widget (ALTCHA ≈ 30 KB gzip, or Google's script) loads only when a challenge shows, so no page's first load
// grows: the byte budget's walk (bench/lib/route-bytes.mjs ON_DEMAND_COMPONENTS) leaves it out, and e2e checks that
// the sign-in page's first load never fetches it. Code that cannot load says so, with Try again.
const CaptchaDialog = onDemand(
  'captcha',
  () => import('./captcha-dialog.js').then((m) => ({ default: m.CaptchaDialog })),
  { Failed: CaptchaUnavailable },
);

/**
 * The one place a challenge shows (SPEC.md §3 "Captcha state", §4 "Captcha"): the shell owns the state in the
 * store; remotes ask with `requestCaptcha` from shared-contracts and never import a widget.
 */
export function CaptchaOutlet() {
  const show = useSelector((state: RootState) => selectCaptchaInProgress(state));
  if (!show) return null;
  return <CaptchaDialog />;
}
