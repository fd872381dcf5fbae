/**
 * When to tell the partner's developer something on the console. The words are in a chunk of
 * their own (src/developer-messages.ts), loaded only when there is something to say.
 */
import type { messages } from '../developer-messages.js';

type Messages = typeof messages;
type Properties = Parameters<Messages['attribute']>[3];

/** Says `kind` on the console, with the fix. */
export function tellDeveloper<K extends keyof Messages>(kind: K, ...args: Parameters<Messages[K]>): void {
  void import('../developer-messages.js').then(({ messages }) =>
    (messages[kind] as (...a: Parameters<Messages[K]>) => void)(...args),
  );
}

/** The code of a request the page's Content Security Policy refused: waiting does not mend it. */
export const BLOCKED_BY_POLICY = 'blocked_by_policy';

/** The code of a request the proxy's CORS refused (the page's origin is not allowed, or an answer without CORS headers). */
export const ORIGIN_REFUSED = 'origin_not_allowed';

/** Where the page's Content Security Policy refused a connection, as the browser reported it. */
const blockedByPolicy = new Set<string>();

if (typeof document !== 'undefined') {
  document.addEventListener('securitypolicyviolation', (event) => {
    const directive = event.effectiveDirective;
    if (directive === 'connect-src') blockedByPolicy.add(event.blockedURI);
    if (directive === 'trusted-types') tellDeveloper('trustedTypes');
  });
}

/**
 * Whether the page's policy refused a connection to `url` (its origin or the URL itself was
 * reported). The report comes in a task of its own, after the failed fetch: it is waited for.
 */
export async function blockedByContentPolicy(url: string): Promise<boolean> {
  await new Promise((resolve) => setTimeout(resolve, 100));
  const { origin, href } = new URL(url, globalThis.location?.href);
  for (const blocked of blockedByPolicy) {
    if (blocked === origin || href.startsWith(blocked)) {
      tellDeveloper('connectSrc', href, origin, origin === globalThis.location?.origin);
      return true;
    }
  }
  return false;
}

/**
 * Whether a proxy on another origin answers, but refused this page's origin (its CORS): asked of
 * the messages' chunk, which says so on the console, after a sign-in failed.
 */
export const refusedByCors = (url: string): Promise<boolean> =>
  import('../developer-messages.js').then(({ refusedByCors }) => refusedByCors(url)).catch(() => false);

/** The attributes any element may carry, and the elements' shared `theme`. */
const EVERYWHERE =
  /^(?:aria-|data-|on)|^(?:id|class|style|slot|part|exportparts|lang|dir|hidden|inert|title|role|tabindex|is|nonce|autofocus|translate|draggable|spellcheck|enterkeyhint|inputmode|contenteditable|accesskey|popover|theme)$/;

/**
 * Names each attribute of `element` that it does not have; one named after a property (`properties`,
 * the element's) is that property bound before the element was defined, and said so.
 */
export function checkAttributes(element: Element, known: readonly string[], properties?: Properties): void {
  for (const { name } of element.attributes) {
    if (!EVERYWHERE.test(name) && !known.includes(name))
      tellDeveloper('attribute', element.localName, name, known, properties);
  }
}
