/**
 * Reaching into the elements as the browser tests do: their shadow roots, their focus, the
 * keyboard on their notices, and the sandbox behind them.
 */
import { waitUntil as waitUntilWithin } from '@open-wc/testing';
import { sendKeys } from '@web/test-runner-commands';
import type { DemoBackend } from '../../../src/sandbox/demo-backend.js';

/** The first match of `selector` in `element`'s shadow root. */
export const $ = <T extends Element = HTMLElement>(element: Element, selector: string) =>
  element.shadowRoot!.querySelector<T>(selector);

/** Every match of `selector` in `element`'s shadow root. */
export const $$ = (element: Element, selector: string) => [
  ...element.shadowRoot!.querySelectorAll<HTMLElement>(selector),
];

/** Whether `target` has focus in the element; a boolean keeps a failure's report small (no DOM diff). */
export const hasFocus = (element: Element, target: Element | null | undefined) =>
  Boolean(target) && element.shadowRoot!.activeElement === target;

/** Presses the notice's "Try again" from the keyboard, as a member does. */
export async function pressTryAgain(element: Element): Promise<void> {
  $<HTMLButtonElement>(element, '[role=alert] button')!.focus();
  await sendKeys({ press: 'Enter' });
}

/** A POST to the sandbox's own controls (`/_sandbox/…`), with a JSON body when there is one. */
export const sandboxPost = (backend: DemoBackend, path: string, body?: unknown) =>
  backend.sandbox.fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

/**
 * @open-wc/testing's `waitUntil`, waiting up to 5 s unless told otherwise (its own default is 1 s):
 * what the tests wait for is mostly a round trip through the proxy and sandbox in the page, which
 * a loaded machine can take longer than 1 s to make. A test that checks that something comes soon
 * gives its own timeout (or checks the timing in Node, with mocked timers).
 */
export function waitUntil(
  condition: () => unknown,
  message?: string,
  options: { interval?: number; timeout?: number } = {},
): Promise<void> {
  return waitUntilWithin(condition, message, { timeout: 5000, ...options });
}
