/**
 * Which record `<consult-thread>` shows and how it is read: the member state's (one copy for the
 * whole page), else the one the page handed over, whichever is newer; read once the member is
 * known, unless the state has it or is reading it, and again on "Try again".
 */
import type { ConsultationView } from '../../client/browser-types.js';
import { isOlder } from '../../session/consultations.js';
import type { MemberState } from '../../session/member-state.js';
import type { SessionManager } from '../../session/session.js';
import type { MemberController } from '../shared/member-controller.js';

export interface ReadingHost {
  readonly consultationId?: string | undefined;
  /** The record the page handed over, if any. */
  readonly consultation?: ConsultationView | undefined;
  readonly memberState: MemberState | undefined;
  readonly activeSession: SessionManager | undefined;
  readonly isConnected: boolean;
}

export type LoadStatus = { status: 'idle' | 'loading' | 'ready' | 'error'; error?: unknown };

export class ConsultationReading {
  readonly #host: ReadingHost;
  readonly #member: MemberController;
  readonly #onError: (error: unknown) => void;

  constructor(host: ReadingHost, member: MemberController, onError: (error: unknown) => void) {
    this.#host = host;
    this.#member = member;
    this.#onError = onError;
  }

  /** The consultation on screen; undefined while it loads. */
  get record(): ConsultationView | undefined {
    const { consultationId: id, consultation } = this.#host;
    if (!id) return undefined;
    const held = this.#host.memberState?.consultation(id);
    const given = consultation?.consultationId === id ? consultation : undefined;
    if (held && given) return isOlder(held, given) ? given : held;
    return held ?? given;
  }

  /** Where the first read of the consultation is, when the page did not hand it over. */
  get status(): LoadStatus {
    const id = this.#host.consultationId;
    if (!id || this.record) return { status: 'ready' };
    const state = this.#host.memberState;
    const signIn = this.#member.signInStatus;
    if (!state || signIn !== 'ready') return { status: signIn };
    return state.consultationStatus(id);
  }

  /** Reads the consultation once the member is known, unless the state has it or is reading it. */
  loadIfNeeded(): void {
    const { consultationId: id, memberState: state, activeSession: session } = this.#host;
    if (!id || this.record || !this.#host.isConnected || !session) return;
    if (!this.#member.current) {
      // Signing in sets the member, which renders this element again for them.
      this.#member.signInIfIdle();
      return;
    }
    if (state?.consultationStatus(id).status !== 'idle') return;
    state.load(id).catch(this.#onError);
  }

  /** Reads the consultation again (signing in again first if that failed). */
  reload(): void {
    const id = this.#host.consultationId;
    if (id && !this.#member.current) void this.#host.activeSession?.retry().catch(() => undefined);
    if (!id || !this.#member.current) return;
    this.#host.memberState?.load(id, { fresh: true }).catch(this.#onError);
  }
}
