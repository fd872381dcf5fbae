/**
 * The elements' events: bubbling, composed, one class per domain fact. They carry identifiers and
 * states, never health text (docs/security.md S16), so a partner's analytics can listen safely.
 */
import type { ConsultationStatus } from '../../client/types.js';

abstract class ConsultEvent<D> extends Event {
  constructor(
    type: string,
    readonly detail: D,
  ) {
    super(type, { bubbles: true, composed: true });
  }
}

/** A new consultation was created. */
export class ConsultSubmittedEvent extends ConsultEvent<{ consultationId: string; questions: number }> {
  static readonly eventName = 'consult-submitted';
  constructor(detail: { consultationId: string; questions: number }) {
    super(ConsultSubmittedEvent.eventName, detail);
  }
}

/** A consultation the member is looking at received an answer. */
export class ConsultAnsweredEvent extends ConsultEvent<{
  consultationId: string;
  status: ConsultationStatus;
}> {
  static readonly eventName = 'consult-answered';
  constructor(detail: { consultationId: string; status: ConsultationStatus }) {
    super(ConsultAnsweredEvent.eventName, detail);
  }
}

/** The member asked a follow-up question. */
export class ConsultFollowupEvent extends ConsultEvent<{ consultationId: string; questionsUsed: number }> {
  static readonly eventName = 'consult-followup';
  constructor(detail: { consultationId: string; questionsUsed: number }) {
    super(ConsultFollowupEvent.eventName, detail);
  }
}

/** A navigator message was sent or received. */
export class NavigatorMessageEvent extends ConsultEvent<{
  conversationId: string;
  messageId: string;
  role: 'member' | 'navigator';
}> {
  static readonly eventName = 'navigator-message';
  constructor(detail: { conversationId: string; messageId: string; role: 'member' | 'navigator' }) {
    super(NavigatorMessageEvent.eventName, detail);
  }
}

/** A prescription request was sent; its answers stay out of the event. */
export class PrescriptionSubmittedEvent extends ConsultEvent<{ prescriptionId: string; status: string }> {
  static readonly eventName = 'prescription-submitted';
  constructor(detail: { prescriptionId: string; status: string }) {
    super(PrescriptionSubmittedEvent.eventName, detail);
  }
}

/** The member chose to ask a doctor from the navigator; the text goes to the form directly, not in the event. */
export class NavigatorHandoffEvent extends ConsultEvent<{
  conversationId: string;
  handedTo: 'consult-form' | 'none';
}> {
  static readonly eventName = 'navigator-handoff';
  constructor(detail: { conversationId: string; handedTo: 'consult-form' | 'none' }) {
    super(NavigatorHandoffEvent.eventName, detail);
  }
}

/**
 * The member chose "Start a new consultation" where a consultation ended (its question limit
 * reached, closed or canceled); `handedTo` says whether the page's form took it. Their unsent text
 * goes to the form directly, never in the event.
 */
export class ConsultStartNewEvent extends ConsultEvent<{
  consultationId: string;
  reason: 'limit' | 'closed' | 'canceled';
  handedTo: 'consult-form' | 'none';
}> {
  static readonly eventName = 'consult-start-new';
  constructor(detail: {
    consultationId: string;
    reason: 'limit' | 'closed' | 'canceled';
    handedTo: 'consult-form' | 'none';
  }) {
    super(ConsultStartNewEvent.eventName, detail);
  }
}

/** The session ended and could not be renewed: the partner should sign the member in again. */
export class SessionExpiredEvent extends ConsultEvent<{ reason: 'expired' | 'signed-out' | 'refused' }> {
  static readonly eventName = 'session-expired';
  constructor(detail: { reason: 'expired' | 'signed-out' | 'refused' }) {
    super(SessionExpiredEvent.eventName, detail);
  }
}

/** Something failed in a way the member saw. */
export class ConsultErrorEvent extends ConsultEvent<{ code: string; status: number; operation?: string }> {
  static readonly eventName = 'consult-error';
  constructor(detail: { code: string; status: number; operation?: string }) {
    super(ConsultErrorEvent.eventName, detail);
  }
}

/** How many of the member's answers they have not seen yet changed: badge the partner's own navigation with it. */
export class ConsultUnreadChangedEvent extends ConsultEvent<{ count: number }> {
  static readonly eventName = 'consult-unread-changed';
  constructor(detail: { count: number }) {
    super(ConsultUnreadChangedEvent.eventName, detail);
  }
}

declare global {
  interface GlobalEventHandlersEventMap {
    'consult-submitted': ConsultSubmittedEvent;
    'consult-answered': ConsultAnsweredEvent;
    'consult-followup': ConsultFollowupEvent;
    'consult-start-new': ConsultStartNewEvent;
    'navigator-message': NavigatorMessageEvent;
    'navigator-handoff': NavigatorHandoffEvent;
    'prescription-submitted': PrescriptionSubmittedEvent;
    'session-expired': SessionExpiredEvent;
    'consult-error': ConsultErrorEvent;
    'consult-unread-changed': ConsultUnreadChangedEvent;
  }
}
