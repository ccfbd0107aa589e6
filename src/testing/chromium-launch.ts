/**
 * How the browser tests and `bench:ui` start Debian's Chromium through playwright-core: the system binary (no
 * browser download) with the flags a headless run on a CI machine needs.
 */
export const CHROMIUM_LAUNCH = {
  executablePath: '/usr/bin/chromium',
  args: [
    '--headless',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
    '--no-first-run',
  ],
};
