import { test as base, expect } from '@playwright/test';

/** `baseURL` comes from global-setup, which starts the server on a free port. */
export const test = base.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads the fixture arguments from this pattern.
  baseURL: async ({}, use) => {
    const url = process.env.E2E_BASE_URL;
    if (!url) throw new Error('E2E_BASE_URL is not set: global-setup did not start the server');
    await use(url);
  },
  // Every page runs under the server's Content-Security-Policy: a violation the browser reports fails the test.
  page: async ({ page }, use) => {
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content[- ]Security[- ]Policy|Refused to (execute|load|apply)/i.test(message.text())) {
        violations.push(message.text());
      }
    });
    await use(page);
    expect(violations, 'CSP violations in the browser console').toEqual([]);
  },
});

export { expect };
