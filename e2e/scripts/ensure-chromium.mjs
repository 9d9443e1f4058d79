// Runs before the browser suites (`npm test -w e2e`): they drive Debian's Chromium, never a downloaded browser.
// On a fresh machine without it, install Debian's `chromium` package when we are root and apt-get exists, saying
// so; otherwise stop with a clear message instead of a Playwright stack trace.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const chromium = process.env.CHROME_PATH ?? '/usr/bin/chromium';

if (!existsSync(chromium)) {
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const apt = existsSync('/usr/bin/apt-get');
  if (process.env.CHROME_PATH || !root || !apt) {
    console.error(
      `e2e: no Chromium at ${chromium}. Install Debian's package (as root: apt-get update && apt-get install -y ` +
        'chromium) or set CHROME_PATH to a Chromium binary. The suites never download a browser.',
    );
    process.exit(1);
  }
  console.log("e2e: /usr/bin/chromium is missing; installing Debian's chromium package (apt-get, as root)");
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', 'chromium'], { stdio: 'inherit', env });
}
