/**
 * Messages for the partner's developer, on the browser's console: one per cause, said once, each
 * with the fix. A chunk of its own, loaded only when there is something to say, so members'
 * pages do not carry the words (src/session/developer-hints.ts decides when).
 */
import { TRUSTED_TYPES_MISSING } from './trusted-types-message.js';

const said = new Set<string>();

/** An element's reactive properties, as Lit declares them. */
type Properties = ReadonlyMap<PropertyKey, { attribute?: boolean | string; state?: boolean }>;

function tell(key: string, message: string): void {
  if (said.has(key)) return;
  said.add(key);
  console.error(`consult-elements: ${message}`);
}

/** Edit distance, for "did you mean": short names, so the plain table is enough. */
function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

export const messages = {
  /**
   * An attribute the element does not have, with the closest one it does; or one named after a
   * property (`suggestions`, `chunksize` for `chunkSize`): a framework bound the property before the
   * element was defined and, not finding it, set an attribute instead, with the value as text.
   */
  attribute(tag: string, name: string, known: readonly string[], properties: Properties = new Map()): void {
    for (const [key, { attribute, state }] of properties) {
      const property = String(key);
      if (!state && [property, property.replace(/[A-Z]/g, '-$&')].some((form) => form.toLowerCase() === name))
        return tell(
          `${tag}[${name}]`,
          `<${tag}> got its property ${property} as text, in an attribute: a framework binding it before the ` +
            `element is defined does that. Bind it as a property, :${property}.prop="…" in Vue` +
            `${typeof attribute === 'string' ? `, or the attribute ${attribute}` : ''}.`,
        );
    }
    const near = known.find((candidate) => distance(candidate, name) <= 2);
    tell(
      `${tag}[${name}]`,
      `<${tag}> has no attribute "${name}"${near ? `: did you mean "${near}"?` : '.'} Its attributes: ${known.join(', ')}.`,
    );
  },
  /** Outside `<consult-session>`, with no endpoint and no session set. */
  noSession(tag: string): void {
    tell(
      `no-session ${tag}`,
      `<${tag}> has no session: put it inside <consult-session endpoint="/consult">, or give it an endpoint ` +
        'attribute (the path where your server mounts the proxy).',
    );
  },
  /** `{endpoint}/session` answered 404. */
  sessionNotFound(url: string): void {
    tell(
      `session-404 ${url}`,
      `${url} answered 404: is the proxy mounted there? Set endpoint on <consult-session> to the path where ` +
        'your server mounts it (endpoint="/consult" for app.route(\'/consult\', proxy)).',
    );
  },
  /** The page's policy refused a connection to the proxy. */
  connectSrc(url: string, origin: string, self: boolean): void {
    tell(
      `connect-src ${origin}`,
      `the page’s Content Security Policy blocked ${url}: add ${self ? "'self'" : origin} to its connect-src ` +
        'directive. It is not tried again until the page loads with that policy.',
    );
  },
  /** The proxy on another origin answers, but its CORS refused this page's origin. */
  originRefused(url: string, origin: string): void {
    tell(
      `origin ${url}`,
      `the proxy at ${url} refused this page's origin ${origin} (CORS): add ${origin} to ` +
        'CONSULT_ALLOWED_ORIGINS (the allowedOrigins option) on the server that runs the proxy. ' +
        'Members see "Reconnecting…" until it is allowed (or, if it was a passing error without CORS headers, until it passes).',
    );
  },
  /** The event stream opened but nothing came through: an intermediary buffers it. */
  streamSilent(url: string): void {
    tell(
      `stream-silent ${url}`,
      `the live event stream ${url} opened but nothing came through it in 5 s: something between the ` +
        'page and the proxy holds it back, usually compression (Next.js with compress: true, Express ' +
        "with compression, a CDN) that ignores the stream's Cache-Control: no-transform. Leave that path " +
        'uncompressed and unbuffered. Meanwhile answers arrive by polling, about 10 s late.',
    );
  },
  /** Sign-in could not get through: the proxy, or the service behind it, is down. */
  unreachable(url: string, status: number, code: string): void {
    const reason =
      status === 0
        ? `${url} could not be reached: is your server running, with the proxy mounted at that path?`
        : code === 'upstream_unavailable'
          ? `${url} answered ${status}: the proxy is up but could not reach the consultation service. ` +
            "Check CONSULT_UPSTREAM_URL (the upstreamUrl option) and the proxy's log."
          : `${url} answered ${status}: the proxy, or something in front of it, is not serving.`;
    tell(
      `unreachable ${url}`,
      `${reason} Members see "Reconnecting…"; the elements keep trying and carry on by themselves once it answers.`,
    );
  },
  /** The page's policy requires Trusted Types without naming the elements' policies. */
  trustedTypes(): void {
    tell('trusted-types', TRUSTED_TYPES_MISSING);
  },
};

/**
 * Whether a proxy on another origin answers, but not to this page: a request made without CORS (its
 * answer opaque to the page) gets through where the real one failed, so the proxy's CORS refused
 * the page's origin. Said on the console, with the setting that allows it.
 */
export async function refusedByCors(url: string): Promise<boolean> {
  const page = globalThis.location;
  if (!page) return false;
  const target = new URL(url, page.href);
  if (target.origin === page.origin) return false;
  try {
    await fetch(target.href, { mode: 'no-cors', credentials: 'omit', cache: 'no-store' });
  } catch {
    // Not reachable at all: an outage, not a refusal.
    return false;
  }
  messages.originRefused(target.href, page.origin);
  return true;
}
