import type { Page } from 'playwright-core';

/** Waits until the page's `<consult-form>` can send: the member signed in and the plan checked. */
export async function formCanSend(page: Page, timeout = 20_000): Promise<void> {
  await page.waitForFunction(
    () =>
      document
        .querySelector('consult-form')
        ?.shadowRoot?.querySelector('[part~=submit-button]')
        ?.getAttribute('aria-disabled') === 'false',
    null,
    { timeout },
  );
}
