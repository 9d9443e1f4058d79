import { defineConfig } from '@playwright/test';
import { CHROMIUM_LAUNCH } from './playwright.config.js';
export default defineConfig({ testDir: './tests', testMatch: /zz-.*\.spec\.ts/, workers: 1, timeout: 120_000, use: { browserName: 'chromium', launchOptions: CHROMIUM_LAUNCH, locale: 'en-GB' } });
