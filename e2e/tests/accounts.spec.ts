import type { Browser, BrowserContext, Page } from '@playwright/test';
import { expect, test } from '../support/fixtures';
import { makePng } from '../support/png';

/**
 * Passkeys are bound to a host name, and WebAuthn refuses an IP address: this test talks to the server as
 * localhost (the server's default relying party without APP_URL).
 */
const localhostOf = (url: string) => url.replace('://127.0.0.1', '://localhost');

type Opened = { context: BrowserContext; page: Page; violations: string[] };

/** A fresh browser profile (its own cookies), watched for CSP violations like the fixture's page. */
async function openContext(browser: Browser, baseURL: string): Promise<Opened> {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy|Refused to (execute|load|apply)/i.test(message.text())) {
      violations.push(message.text());
    }
  });
  return { context, page, violations };
}

/** Chromium's virtual authenticator (CDP WebAuthn domain): a platform authenticator that always says yes. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

test('a passkey added in one browser opens the same workspace in a fresh one; an invite joins a third', async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const base = localhostOf(baseURL ?? '');
  const title = `Passkey Tee ${Date.now().toString(36)}`;

  // Browser 1: a first visit works at once; a product; Settings adds a passkey.
  const one = await openContext(browser, base);
  const key = await virtualAuthenticator(one.page);
  await one.page.goto('/');
  const created = await one.page.request.post('/api/products', {
    multipart: {
      file: { name: 'tee.png', mimeType: 'image/png', buffer: makePng(300, 300, () => [200, 40, 90, 255]) },
      title,
      description: 'Reached from anywhere.',
      price: '21.00',
      productType: 'tshirt',
      tags: JSON.stringify(['passkey']),
      variants: JSON.stringify([{ option: 'Medium', price: 21 }]),
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  await one.page.getByRole('button', { name: 'Settings' }).click();
  const settings = one.page.getByRole('dialog', { name: 'Workspace settings' });
  await expect(settings.getByTestId('no-passkey-warning')).toBeVisible();
  await settings.getByLabel('Passkey name').fill('Work laptop');
  await settings.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(settings.getByRole('list', { name: 'Passkeys' })).toContainText('Work laptop');
  await expect(settings.getByTestId('no-passkey-warning')).toHaveCount(0);

  // The same passkey on another device (as a synced passkey would be): copied into browser 2's authenticator.
  const { credentials } = await key.cdp.send('WebAuthn.getCredentials', { authenticatorId: key.authenticatorId });
  expect(credentials).toHaveLength(1);
  const two = await openContext(browser, base);
  const other = await virtualAuthenticator(two.page);
  await other.cdp.send('WebAuthn.addCredential', {
    authenticatorId: other.authenticatorId,
    credential: credentials[0] as NonNullable<(typeof credentials)[0]>,
  });
  // A fresh browser starts working at once (its own new workspace), then signs in with the passkey.
  await two.page.goto('/?tab=my-products');
  await expect(two.page.getByText(title)).toHaveCount(0);
  await two.page.getByRole('button', { name: 'Settings' }).click();
  const signIn = two.page.waitForResponse((r) => r.url().endsWith('/api/auth/passkeys/login'));
  const twoSettings = two.page.getByRole('dialog', { name: 'Workspace settings' });
  await twoSettings.getByRole('button', { name: 'Sign in with a passkey' }).click();
  // Without a passkey of its own here, the browser is asked to confirm leaving its fresh workspace.
  await twoSettings.getByRole('button', { name: 'Leave this workspace and sign in' }).click();
  const signedIn = await signIn;
  expect(signedIn.status(), await signedIn.text()).toBe(200);
  await two.page.goto('/?tab=my-products');
  await expect(two.page.getByText(title).first()).toBeVisible();

  // Browser 1 invites a viewer; browser 3 opens the link, confirms and sees the same products.
  const invite = await one.page.request.post('/api/workspace/invites', { data: { role: 'viewer' } });
  expect(invite.status()).toBe(201);
  const { url } = (await invite.json()) as { url: string };
  const three = await openContext(browser, base);
  await three.page.goto(url);
  await expect(three.page.getByText(/You are invited to join as/)).toContainText('Viewer');
  await three.page.getByLabel(/Your name/).fill('Sam');
  await three.page.getByRole('button', { name: 'Join workspace' }).click();
  await expect(three.page).toHaveURL(/\/$/);
  await three.page.goto('/?tab=my-products');
  await expect(three.page.getByText(title).first()).toBeVisible();
  // A viewer changes nothing.
  const refused = await three.page.request.patch('/api/settings', { data: { targetMargin: 10 } });
  expect(refused.status()).toBe(403);

  // The owner sees both members; signing browser 2 out works at once, and it is offered to sign in again.
  await one.page.reload();
  await one.page.getByRole('button', { name: 'Settings' }).click();
  const members = one.page.getByRole('dialog', { name: 'Workspace settings' }).getByRole('list', { name: 'Members' });
  await expect(members).toContainText('Sam');
  await expect(members).toContainText('Viewer');
  const sessions = await (await one.page.request.get('/api/auth/sessions')).json();
  const secondBrowser = (sessions as { id: string; current: boolean }[]).find((s) => !s.current);
  expect(secondBrowser).toBeDefined();
  await one.page.request.delete(`/api/auth/sessions/${secondBrowser?.id}`);
  await two.page.reload();
  await expect(two.page.getByRole('heading', { name: 'This browser is signed out' })).toBeVisible();
  await two.page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  // Signed in, the gate shows the app itself.
  await expect(two.page.getByRole('button', { name: 'Settings' })).toBeVisible();
  await two.page.goto('/?tab=my-products');
  await expect(two.page.getByText(title).first()).toBeVisible();

  for (const opened of [one, two, three]) {
    expect(opened.violations, 'CSP violations in the browser console').toEqual([]);
    await opened.context.close();
  }
});
