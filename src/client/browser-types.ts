/**
 * The browser surface: what the partner's proxy sends a member's browser, and nothing more. The
 * proxy's views are projections of the upstream types (fields the elements do not need never reach
 * a browser), so a browser must not be promised the upstream types. These types are inferred from
 * the proxy's own schemas (src/proxy/schemas.ts, type-only), the ones that make the projections, so
 * the two cannot differ.
 */
import type * as z from 'zod/mini';
import type * as views from '../proxy/schemas.js';
import type { OperationMethod } from './operation-client.js';
import type { MemberOperationName, OperationDefinitions } from './operations.js';

/** The signed-in member, as `POST {base}/session` and `GET {base}/user/{me}` describe them. */
export type MemberView = z.output<typeof views.MemberView>;

/** What `POST {base}/session` answers, and what a host's `tokenProvider` returns. */
export interface SessionGrant {
  token: string;
  /** ISO date from the proxy; a host's own provider may also give epoch milliseconds or a Date. */
  expiresAt: number | string | Date;
  user: MemberView;
}

/** One of the member's subscriptions. */
export type SubscriptionView = z.output<typeof views.SubscriptionView>;

/** A consultation with its questions, answers and professionals: passed through as the upstream sends it. */
export type ConsultationView = z.output<typeof views.ConsultationView>;
export type ConversationView = z.output<typeof views.ConversationView>;
export type ReplyView = z.output<typeof views.ReplyView>;

/** A prescription request, without the indication survey the member sent. */
export type PrescriptionView = z.output<typeof views.PrescriptionView>;

/** The data of a `consultation` event on `GET {base}/events`: a hint to re-read, never the record. */
export type ConsultationEvent = z.output<typeof views.BrowserEvent>;

/** What a `consultation` event says happened: a known webhook type, or any other change. */
export type ConsultationEventType = ConsultationEvent['type'];

/** What the proxy answers a member for operation `N`. */
export type MemberResponse<N extends MemberOperationName> = z.output<(typeof views.MEMBER_VIEWS)[N]>;

/**
 * The typed client as a browser sees it through the proxy: the operations the proxy forwards, each
 * answering the proxy's view. `<consult-session>`'s `client` is one (src/session/session-client.ts).
 */
export type BrowserClient = {
  [N in keyof Pick<OperationDefinitions, MemberOperationName>]: OperationMethod<N, MemberResponse<N>>;
};
