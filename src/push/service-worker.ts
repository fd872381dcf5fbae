/**
 * The service worker that shows the proxy's pushes (built to `dist/browser/consult-push-sw.js`;
 * the proxy serves it at `{base}/push/sw.js`). A push carries `{ kind, consultationId, lang }` and
 * nothing else; the words shown are the package's own, in that language (docs/security.md S28).
 * A click focuses an open tab with the elements, which opens the consultation, or opens the
 * portal's page with `?consultation=<id>`.
 *
 * Query parameters of its own URL configure it: `page`, the page to open when no tab is open
 * (default: the worker's scope).
 */
import { PUSH_WORDS, type PushKind, type PushLanguage } from './words.js';

/** What the elements' tab is told when a notification for one of its consultations is clicked. */
export const OPEN_MESSAGE = 'consult-open-consultation';

interface WindowClient {
  url: string;
  focus(): Promise<WindowClient>;
  postMessage(message: unknown): void;
}
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface PushEvent extends ExtendableEvent {
  data: { json(): unknown } | null;
}
interface NotificationEvent extends ExtendableEvent {
  notification: { data: unknown; close(): void };
}
interface WorkerScope {
  location: { href: string };
  registration: {
    scope: string;
    showNotification(title: string, options: Record<string, unknown>): Promise<void>;
  };
  clients: {
    matchAll(options: { type: 'window'; includeUncontrolled: boolean }): Promise<WindowClient[]>;
    openWindow(url: string): Promise<WindowClient | null>;
  };
  addEventListener(type: 'push', listener: (event: PushEvent) => void): void;
  addEventListener(type: 'notificationclick', listener: (event: NotificationEvent) => void): void;
}

const worker = self as unknown as WorkerScope;
const ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The push as the proxy sends it, or undefined for anything else (which shows nothing of it). */
export function readPush(
  data: unknown,
): { kind: PushKind; consultationId: string; lang: PushLanguage } | undefined {
  const { kind, consultationId, lang } = (data ?? {}) as Record<string, unknown>;
  if (kind !== 'answer' && kind !== 'closed') return undefined;
  if (typeof consultationId !== 'string' || !ID.test(consultationId)) return undefined;
  const language = typeof lang === 'string' && lang in PUSH_WORDS ? (lang as PushLanguage) : 'en';
  return { kind, consultationId, lang: language };
}

/** The page a click opens: the configured one (or the scope) with the consultation's id. */
export function pageFor(workerUrl: string, scope: string, consultationId: string): string {
  const configured = new URL(workerUrl).searchParams.get('page');
  const page = new URL(configured ?? scope, scope);
  page.searchParams.set('consultation', consultationId);
  return page.href;
}

worker.addEventListener('push', (event) => {
  let data: unknown;
  try {
    data = event.data?.json();
  } catch {
    data = undefined;
  }
  const push = readPush(data);
  if (!push) return;
  const words = PUSH_WORDS[push.lang][push.kind];
  event.waitUntil(
    worker.registration.showNotification(words.title, {
      body: words.body,
      lang: push.lang,
      dir: push.lang === 'ar' ? 'rtl' : 'ltr',
      // One notification per consultation: a newer one replaces it.
      tag: `consult-${push.consultationId}`,
      data: { consultationId: push.consultationId },
    }),
  );
});

worker.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const consultationId = (event.notification.data as { consultationId?: unknown } | null)?.consultationId;
  if (typeof consultationId !== 'string' || !ID.test(consultationId)) return;
  const target = pageFor(worker.location.href, worker.registration.scope, consultationId);
  event.waitUntil(
    (async () => {
      const windows = await worker.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const page = new URL(target);
      // A tab on the configured page (or, without one, any tab in scope) has the elements.
      const open =
        windows.find((client) => new URL(client.url).pathname === page.pathname) ??
        (new URL(worker.location.href).searchParams.has('page') ? undefined : windows[0]);
      if (open) {
        open.postMessage({ type: OPEN_MESSAGE, consultationId });
        await open.focus();
        return;
      }
      await worker.clients.openWindow(target);
    })(),
  );
});
