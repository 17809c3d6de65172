// account.test.mjs -- the account through the page (web/account/): a page
// opened by nobody plays as a guest at once; signing up, logging out and
// logging in go through the page's own forms (typed, submitted with the
// keyboard), and each shows the new name in the bar, in the lobby and at a
// table; a wrong password shows the server's own sentence; the socket the
// page opens afterwards is the new player's.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { webServer, launch, newPage, newTable, assertNoErrors, stopAll, WAIT } from './helpers.mjs';

let server, browser;
before(async () => {
  server = await webServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await stopAll();
});

/** The bar's name and kind, once shown. */
/** The browser logs a refused request (401, 409) as an error: these are expected. */
const refusals = (text) => /Failed to load resource: .* status of (401|409)/.test(text);

async function barName(page, kind) {
  const el = page.locator(`.account-name[data-kind="${kind}"]`).first();
  await el.waitFor({ timeout: WAIT });
  return el.textContent();
}

/** Opens the bar's menu (the player's name is its button) and chooses one of its actions. */
async function accountAction(page, action) {
  const menu = page.locator('details.account-menu').first();
  if (!(await menu.evaluate((d) => d.open))) await menu.locator('> summary').click();
  await menu.locator(`[data-account="${action}"]`).click();
}

/** Fills the open dialog's fields by label and submits it with Enter. */
async function fillForm(page, fields) {
  const dialog = page.locator('dialog.account-dialog[open]');
  await dialog.waitFor({ timeout: WAIT });
  for (const [label, value] of Object.entries(fields)) {
    await dialog.getByLabel(label, { exact: true }).fill(value);
  }
  await page.keyboard.press('Enter');
}

test('a guest at once; sign up, log out, log in through the forms; a wrong password', async () => {
  const page = await newPage(browser);
  page.allowErrors = refusals;
  await page.goto(`${server.base}?lang=en`);
  const guestName = await barName(page, 'guest');
  assert.match(guestName, /^Guest \d{4}$/);
  await page.locator('.conn[data-state="open"]').waitFor({ timeout: WAIT });

  // sign up: the guest becomes the account, the page reloads with its name
  await accountAction(page, 'signup');
  await fillForm(page, { Name: 'Zoë Tester', Password: 'zoe password' });
  assert.equal(await barName(page, 'account'), 'Zoë Tester');
  const who = await page.evaluate(() => fetch('/api/me').then((r) => r.json()));
  assert.equal(who.name, 'Zoë Tester');
  assert.equal(who.kind, 'account');

  // at a table too
  const made = await newTable(server, 'cardcassonne', ['human', 'random']);
  await page.goto(made.watchUrl + '?lang=en');
  assert.equal(await barName(page, 'account'), 'Zoë Tester');

  // log out: a guest again
  await accountAction(page, 'logout');
  assert.match(await barName(page, 'guest'), /^Guest \d{4}$/);

  // a wrong password: the server's sentence, and still a guest
  await accountAction(page, 'login');
  await fillForm(page, { Name: 'zoë tester', Password: 'not the password' });
  const error = page.locator('dialog[open] .account-error');
  await error.filter({ hasText: 'wrong name or password' }).waitFor({ timeout: WAIT });
  assert.match(await error.textContent(), /Wrong name or password\./);

  // the right one: the account again (the same dialog, typed again)
  const dialog = page.locator('dialog.account-dialog[open]');
  await dialog.getByLabel('Password', { exact: true }).fill('zoe password');
  await page.keyboard.press('Enter');
  assert.equal(await barName(page, 'account'), 'Zoë Tester');
  assertNoErrors(page);
});

test('a guest renames itself; a name taken shows why', async () => {
  const page = await newPage(browser);
  page.allowErrors = refusals;
  await page.goto(`${server.base}?lang=en`);
  await barName(page, 'guest');
  await accountAction(page, 'rename');
  await fillForm(page, { Name: 'Zoë Tester' });
  await page.locator('dialog[open] .account-error').filter({ hasText: 'taken' }).waitFor({ timeout: WAIT });
  await page.keyboard.press('Escape');
  await accountAction(page, 'rename');
  await fillForm(page, { Name: 'Wim' });
  await page.locator('.account-name[data-kind="guest"]', { hasText: 'Wim' }).waitFor({ timeout: WAIT });
  assertNoErrors(page);
});
