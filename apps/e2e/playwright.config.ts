import { defineConfig, devices } from '@playwright/test';

/** Debian's Chromium (never a downloaded browser); CHROMIUM_PATH overrides. */
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  testDir: './specs',
  globalSetup: './support/global-setup.ts',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: !!process.env.CI,
  // Generous bounds: the machine is shared, and a slow moment must not read as a failure. CI hosts have
  // run the suite five times slower than a quiet one (a 10 s test took 50 s), so a test gets 2 min; a
  // stuck step still fails on its own assertion's 20 s.
  timeout: 120_000,
  expect: { timeout: 20_000 },
  reporter: 'list',
  outputDir: './test-results',
  use: {
    ...devices['Desktop Chrome'],
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
});
