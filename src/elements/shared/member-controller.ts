/**
 * How an element reaches the member: the session it uses (its `session` property, the enclosing
 * `<consult-session>`'s through `@lit/context`, or one shared per `endpoint`), and through it the
 * member and their state. Elements read the member's data here and write through the state; they
 * keep no copy of it.
 *
 * The session's member scope says when the member signs out or another signs in. Then this
 * controller, the one place in an element that hears of it, puts the element's view of the
 * previous member back as it was before anyone signed in, and renders it at once, before any other
 * script runs (S16): the element's `@state()` properties go back to their first values, so do the
 * public ones it names in `memberProperties`, every part it `keep`s, and every draft it `holds`
 * forgets its text.
 */
import { ContextConsumer } from '@lit/context';
import type { LitElement, ReactiveController } from 'lit';
import type { MemberView } from '../../client/browser-types.js';
import type { MemberState } from '../../session/member-state.js';
import { SessionManager, sessionContext } from '../../session/session.js';
import { SessionExpiredEvent } from './events.js';

export interface MemberHost extends LitElement {
  /** A session set from JavaScript; wins over the enclosing `<consult-session>`. */
  session?: SessionManager;
  /** The proxy's base URL, for an element used without `<consult-session>`. */
  endpoint?: string;
}

/** The element class's view of the member, reset when the member changes. */
interface MemberHostClass {
  elementProperties: Map<PropertyKey, { state?: boolean }>;
  /** Public properties that hold the member's data (a record set on the element). */
  memberProperties?: readonly string[];
  /** The element shows the member's consultations: the session keeps them current meanwhile. */
  watchesConsultations?: boolean;
}

export class MemberController implements ReactiveController {
  readonly #host: MemberHost;
  readonly #context: ContextConsumer<typeof sessionContext, MemberHost>;
  readonly #held = new Set<{ forget(): void }>();
  /** The first values of the properties that are the member's view, to go back to. */
  #first?: Map<PropertyKey, unknown>;
  #followed?: SessionManager;
  #unwatch?: () => void;
  #unfollowBrowser?: () => void;
  /** Whether a member was known at the last status: an ended session then tells the page. */
  #hadMember = false;

  constructor(host: MemberHost) {
    this.#host = host;
    host.addController(this);
    this.#context = new ContextConsumer(host, {
      context: sessionContext,
      subscribe: true,
      // Followed at the next update: the session element configures its session in its own first
      // update, before the elements inside it start anything with it.
      callback: () => host.requestUpdate(),
    });
  }

  /** The session in use, or undefined when the element has neither a context nor an endpoint. */
  get session(): SessionManager | undefined {
    const { session, endpoint } = this.#host;
    return session ?? this.#context.value ?? (endpoint ? SessionManager.forEndpoint(endpoint) : undefined);
  }

  /** The session in use is the enclosing `<consult-session>`'s (its announcer speaks for the element). */
  get fromContext(): boolean {
    const session = this.session;
    return session !== undefined && session === this.#context.value;
  }

  /** The member's state in the session in use. */
  get state(): MemberState | undefined {
    return this.session?.state;
  }

  /** The member, once the session knows them. */
  get current(): MemberView | undefined {
    return this.session?.member.current;
  }

  /**
   * How the member's data can be had: `loading` while signing in, `error` when signing in failed
   * or there is no session, `ready` once the member is known.
   */
  get signInStatus(): 'loading' | 'error' | 'ready' {
    const session = this.session;
    if (!session || session.status === 'error') return 'error';
    return this.current ? 'ready' : 'loading';
  }

  /**
   * Before the member is known: starts signing in, once. A sign-in that failed is tried again only
   * from a "try again" (`session.retry()`), never by rendering again.
   */
  signInIfIdle(): void {
    const session = this.session;
    if (session?.status === 'idle' && this.#host.isConnected) void session.ready().catch(() => undefined);
  }

  /** An object of the element's view of the member: its properties go back to `initial()`'s when the member changes. */
  keep<T extends object>(initial: () => T): T {
    const part = initial();
    this.holds({
      forget: () => {
        for (const key of Object.keys(part)) Reflect.deleteProperty(part, key);
        Object.assign(part, initial());
      },
    });
    return part;
  }

  /** A part holding the member's words in memory (a draft): it forgets them when the member changes. */
  holds<T extends { forget(): void }>(part: T): T {
    this.#held.add(part);
    return part;
  }

  hostConnected(): void {
    if (!this.#first) {
      const type = this.#host.constructor as unknown as MemberHostClass;
      const names = [...type.elementProperties].filter(([, options]) => options.state).map(([name]) => name);
      names.push(...(type.memberProperties ?? []));
      this.#first = new Map(names.map((name) => [name, (this.#host as never)[name]]));
    }
    // Moved on the page: disconnecting stopped following the session, and no property changed to restart it.
    if (this.#host.hasUpdated) this.follow();
  }

  hostDisconnected(): void {
    // Detached is not signed out: the member and their data stay until the session says otherwise.
    this.#listen(undefined);
  }

  /**
   * Follows the session in use now (its `session`, `endpoint` or context changed). Called during
   * an update (`updating`), a change of member is rendered by that update.
   */
  follow(updating = false): void {
    const session = this.#host.isConnected ? this.session : undefined;
    if (session === this.#followed) return;
    const before = this.#followed?.member.current?.id;
    this.#listen(session);
    if (before !== undefined && before !== session?.member.current?.id) {
      this.#reset();
      if (!updating) this.#renderNow();
    }
    this.#onStatus();
  }

  #listen(session: SessionManager | undefined): void {
    if (session === this.#followed) return;
    this.#followed?.removeEventListener('status', this.#onStatus);
    this.#followed?.member.removeEventListener('change', this.#onMemberChange);
    this.#followed?.state.removeEventListener('change', this.#onState);
    this.#unwatch?.();
    this.#unfollowBrowser?.();
    this.#followed = session;
    // The browser's `offline` shows the session's one notice at once, while any element follows it.
    this.#unfollowBrowser = session?.follow();
    session?.addEventListener('status', this.#onStatus);
    session?.member.addEventListener('change', this.#onMemberChange);
    session?.state.addEventListener('change', this.#onState);
    const type = this.#host.constructor as unknown as MemberHostClass;
    this.#unwatch = session && type.watchesConsultations ? session.watch() : undefined;
  }

  /** The member state changed: the element renders from it again. */
  #onState = (): void => this.#host.requestUpdate();

  /** Signing in, failed, ended: what the element shows may follow the session's status. */
  #onStatus = (): void => {
    const session = this.#followed;
    // An element on its own tells the page the session ended; inside <consult-session>, the session element does.
    if (this.#hadMember && session?.status === 'expired' && !this.#host.session && !this.fromContext)
      this.#host.dispatchEvent(new SessionExpiredEvent({ reason: 'expired' }));
    this.#hadMember = Boolean(session?.member.current);
    this.#host.requestUpdate();
  };

  /** Signed out, or another member: nothing of the previous one stays, and the element shows so now. */
  #onMemberChange = (): void => {
    this.#reset();
    this.#renderNow();
  };

  /** The element's view goes back to what it was before anyone signed in. */
  #reset(): void {
    const host = this.#host as unknown as Record<PropertyKey, unknown>;
    for (const [name, value] of this.#first ?? []) host[name] = value;
    for (const part of this.#held) part.forget();
  }

  #renderNow(): void {
    // Rendered now, not at the next frame: no script may find the previous member's words meanwhile.
    if (this.#host.hasUpdated && this.#host.isConnected) {
      this.#host.requestUpdate();
      (this.#host as unknown as { performUpdate(): void }).performUpdate();
    }
  }
}
