'use client';
// Generated from custom-elements.json by `npm run generate` (scripts/react-wrappers.ts): do not edit.
/**
 * React components for the elements (`consult-elements/react`), made with @lit/react: attributes
 * and properties are props, and each event is an `on…` prop (`onConsultSubmitted` for
 * `consult-submitted`) that receives the typed event. Importing this module registers every
 * element under its own name. They are client components (`'use client'`): a Server Component
 * renders them, and the elements come alive in the browser.
 */
import { createComponent, type EventName } from '@lit/react';
import * as React from 'react';
// The event types below come from this module's additions to GlobalEventHandlersEventMap: imported
// here, so that the published type declarations carry them for an app that type-checks its libraries.
import '../elements/shared/events.js';
import { ConsultSession as ConsultSessionElement } from '../elements/consult-session/consult-session.js';
import { ConsultForm as ConsultFormElement } from '../elements/consult-form/consult-form.js';
import { CaseHistory as CaseHistoryElement } from '../elements/case-history/case-history.js';
import { ConsultThread as ConsultThreadElement } from '../elements/consult-thread/consult-thread.js';
import { NavigatorChat as NavigatorChatElement } from '../elements/navigator-chat/navigator-chat.js';
import { ConsultAccess as ConsultAccessElement } from '../elements/consult-access/consult-access.js';
import { PrescriptionRequest as PrescriptionRequestElement } from '../elements/prescription-request/prescription-request.js';

/** `<consult-session>`: Signs the member in through the partner's proxy and gives the elements inside it their session: one widget token, renewed before it expires, and one live event stream. When the session cannot start, the content stays in place and each element inside says what went wrong and offers to try again. When it has ended (the member signed out, or it expired and could not be renewed), a notice says so in place of the content, with the partner's own way to sign in from the `signed-out` slot. */
export const ConsultSession = createComponent({
  react: React,
  tagName: 'consult-session',
  elementClass: ConsultSessionElement,
  events: {
    onSessionExpired: 'session-expired' as EventName<GlobalEventHandlersEventMap['session-expired']>,
    onConsultUnreadChanged: 'consult-unread-changed' as EventName<
      GlobalEventHandlersEventMap['consult-unread-changed']
    >,
  },
});

/** `<consult-form>`: The member's question to a doctor: one to three questions, limits shown before they bite, an emergency notice, and a submit that never creates two consultations. The draft (text and idempotency key) is kept in sessionStorage per member, so a reload loses nothing and a retry after a timeout sends the same key. After sending, the new consultation's `<consult-thread>` is shown. */
export const ConsultForm = createComponent({
  react: React,
  tagName: 'consult-form',
  elementClass: ConsultFormElement,
  events: {
    onConsultSubmitted: 'consult-submitted' as EventName<GlobalEventHandlersEventMap['consult-submitted']>,
    onConsultError: 'consult-error' as EventName<GlobalEventHandlersEventMap['consult-error']>,
  },
});

/** `<case-history>`: The member's consultations, newest first, as an inbox: unseen answers marked, the latest message of each with who sent it and when, its status and the questions used. Opening one shows its `<consult-thread>` (registered with it). Rows update live, a question sent from a `<consult-form>` of the same session is listed at once, and long histories render in chunks. Each row is named shortly for screen readers (unread, who, status, when), its subject and questions used as its description; Escape in an open consultation returns to the list, focus on its row; the consultation open is reopened after a reload. */
export const CaseHistory = createComponent({
  react: React,
  tagName: 'case-history',
  elementClass: CaseHistoryElement,
  events: {
    onConsultError: 'consult-error' as EventName<GlobalEventHandlersEventMap['consult-error']>,
    onConsultAnswered: 'consult-answered' as EventName<GlobalEventHandlersEventMap['consult-answered']>,
    onConsultFollowup: 'consult-followup' as EventName<GlobalEventHandlersEventMap['consult-followup']>,
  },
});

/** `<consult-thread>`: One consultation as a conversation: the member's questions and each answer (sanitized markdown) from the professional who gave it, with their name, role and the time; where a waiting question stands; and a follow-up box that counts the questions used. At the cap, or when the consultation has ended, "Start a new consultation" takes the member to the page's form. New answers appear live, without moving what the member is reading or typing. */
export const ConsultThread = createComponent({
  react: React,
  tagName: 'consult-thread',
  elementClass: ConsultThreadElement,
  events: {
    onConsultAnswered: 'consult-answered' as EventName<GlobalEventHandlersEventMap['consult-answered']>,
    onConsultFollowup: 'consult-followup' as EventName<GlobalEventHandlersEventMap['consult-followup']>,
    onConsultStartNew: 'consult-start-new' as EventName<GlobalEventHandlersEventMap['consult-start-new']>,
    onConsultError: 'consult-error' as EventName<GlobalEventHandlersEventMap['consult-error']>,
  },
});

/** `<navigator-chat>`: A chat with the health navigator: general health guidance, example questions sent with one tap, the emergency number first on an urgent reply, and a hand-over to a doctor's question form when the navigator suggests one. The conversation starts when the member sends their first message, so no conversation is created for members who never use the chat. Replies are rendered as sanitized markdown; a message that could not be sent stays in the list with a retry that reuses its idempotency key. What the member is typing, and messages that were not sent, survive a reload in the member's draft store. */
export const NavigatorChat = createComponent({
  react: React,
  tagName: 'navigator-chat',
  elementClass: NavigatorChatElement,
  events: {
    onNavigatorMessage: 'navigator-message' as EventName<GlobalEventHandlersEventMap['navigator-message']>,
    onNavigatorHandoff: 'navigator-handoff' as EventName<GlobalEventHandlersEventMap['navigator-handoff']>,
    onConsultError: 'consult-error' as EventName<GlobalEventHandlersEventMap['consult-error']>,
    onSessionExpired: 'session-expired' as EventName<GlobalEventHandlersEventMap['session-expired']>,
  },
});

/** `<consult-access>`: The member's plan at a glance: whether it includes questions to a doctor, until when, whether it is ending soon or was renewed (with its history), canceled, run out, or missing. It shows the member's subscriptions from the session's member state (the same plan check `<consult-form>` and the navigator's hand-off use, made once for the page) and, for a renewed plan, reads its history through the proxy. */
export const ConsultAccess = createComponent({
  react: React,
  tagName: 'consult-access',
  elementClass: ConsultAccessElement,
  events: {
    onConsultError: 'consult-error' as EventName<GlobalEventHandlersEventMap['consult-error']>,
  },
});

/** `<prescription-request>`: A prescription request: the partner's indication survey as an accessible form, validated, sent once through the proxy, with the member's answers kept for the tab's lifetime. The survey is the `survey` property, or JSON in a child `<script type="application/json">`: `{ "questions": [{ "id", "kind": "text" | "yes-no" | "single" | "multiple", "label", "hint"?, "required"?, "options"?, "maxLength"? }] }`, labels as text or texts by language. A survey with a mistake is named precisely on the console, and the member sees that the form is unavailable. */
export const PrescriptionRequest = createComponent({
  react: React,
  tagName: 'prescription-request',
  elementClass: PrescriptionRequestElement,
  events: {
    onPrescriptionSubmitted: 'prescription-submitted' as EventName<
      GlobalEventHandlersEventMap['prescription-submitted']
    >,
    onConsultError: 'consult-error' as EventName<GlobalEventHandlersEventMap['consult-error']>,
  },
});

for (const [tag, element] of [
  ['consult-session', ConsultSessionElement],
  ['consult-form', ConsultFormElement],
  ['case-history', CaseHistoryElement],
  ['consult-thread', ConsultThreadElement],
  ['navigator-chat', NavigatorChatElement],
  ['consult-access', ConsultAccessElement],
  ['prescription-request', PrescriptionRequestElement],
] as const) {
  element.define(tag);
}
