// Chromium from Debian, launched with the flags the project agreed on (STACK.md): never a downloaded browser, and
// no background traffic that would flood the closed network or add requests to the measurements.
export const CHROMIUM_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
