import { html, nothing, type PropertyValues } from 'lit';
import { property, state } from 'lit/decorators.js';
import { classMap } from 'lit/directives/class-map.js';
import { live } from 'lit/directives/live.js';
import { repeat } from 'lit/directives/repeat.js';
import { ApiError } from '../../client/errors.js';
import { newIdempotencyKey } from '../../client/index.js';
import type { NavigatorMessage } from '../../client/types.js';
import { SessionElement } from '../shared/consult-element.js';
import { clearDraft, loadDraft, saveDraft } from '../shared/drafts.js';
import { NavigatorHandoffEvent, NavigatorMessageEvent } from '../shared/events.js';
import { defineStrings, LocalizeController } from '../shared/localize.js';
import { markdown, preloadMarkdown } from '../shared/markdown.js';
import type { SessionManager } from '../shared/session.js';
import { styles } from './navigator-chat.styles.js';

/** The proxy refuses longer messages. */
const MAX_LENGTH = 4000;
/** From here on, the composer shows how many characters are left. */
const WARN_LENGTH = 3500;
const DRAFT = 'navigator-chat';

const strings = defineStrings({
  en: {
    logLabel: 'Conversation with the health navigator',
    welcome:
      'Ask the health navigator a general health question, or where to find the right care. It does not replace a doctor.',
    examples: 'You could ask:',
    suggestion1: 'How much exercise should I get?',
    suggestion2: 'How can I sleep better?',
    suggestion3: 'Which vaccines do I need before travelling?',
    restored: 'This is a new conversation: earlier messages are not shown again after the page reloads.',
    you: 'You',
    navigator: 'Health navigator',
    sending: 'Sending…',
    notSent: 'Not sent.',
    retry: 'Retry',
    typing: 'The navigator is typing…',
    urgent: 'Urgent: if you are in danger, call your local emergency number now.',
    askDoctor: 'Ask a doctor about this',
    handedOver: 'Your message is now in the question form.',
    noForm:
      'There is no question form on this page. You can ask a doctor from the consultations section of this site.',
    inputLabel: 'Message to the health navigator',
    keyHint: 'Enter sends, Shift+Enter starts a new line.',
    send: 'Send',
    charactersLeft: (n: number, formatted: string) =>
      n === 1 ? '1 character left' : `${formatted} characters left`,
    tooLong: (n: number, formatted: string) =>
      n === 1 ? '1 character too many' : `${formatted} characters too many`,
    shorten: (max: string) => `Messages can have up to ${max} characters. Please shorten yours to send it.`,
    empty: 'Write a message first.',
    wait: 'Please wait for the reply before sending your next message.',
    connecting: 'Connecting to the health navigator…',
    unavailable: 'The health navigator is not available right now.',
    tryAgain: 'Try again',
    unconfigured: 'The health navigator is not set up on this page.',
  },
  de: {
    logLabel: 'Unterhaltung mit dem Gesundheitslotsen',
    welcome:
      'Stellen Sie dem Gesundheitslotsen eine allgemeine Gesundheitsfrage oder fragen Sie, wo Sie die passende Versorgung finden. Er ersetzt keinen Arzt.',
    examples: 'Sie könnten zum Beispiel fragen:',
    suggestion1: 'Wie viel Bewegung brauche ich?',
    suggestion2: 'Wie kann ich besser schlafen?',
    suggestion3: 'Welche Impfungen brauche ich vor einer Reise?',
    restored:
      'Dies ist eine neue Unterhaltung: Frühere Nachrichten werden nach dem Neuladen der Seite nicht mehr angezeigt.',
    you: 'Sie',
    navigator: 'Gesundheitslotse',
    sending: 'Wird gesendet …',
    notSent: 'Nicht gesendet.',
    retry: 'Erneut senden',
    typing: 'Der Gesundheitslotse schreibt …',
    urgent: 'Dringend: Wenn Sie in Gefahr sind, rufen Sie jetzt den Notruf an.',
    askDoctor: 'Dazu eine Ärztin oder einen Arzt fragen',
    handedOver: 'Ihre Nachricht steht jetzt im Frageformular.',
    noForm:
      'Auf dieser Seite gibt es kein Frageformular. Eine ärztliche Frage können Sie im Bereich „Beratungen“ dieser Website stellen.',
    inputLabel: 'Nachricht an den Gesundheitslotsen',
    keyHint: 'Eingabetaste sendet, Umschalt+Eingabetaste beginnt eine neue Zeile.',
    send: 'Senden',
    charactersLeft: (n: number, formatted: string) =>
      n === 1 ? 'Noch 1 Zeichen' : `Noch ${formatted} Zeichen`,
    tooLong: (n: number, formatted: string) =>
      n === 1 ? '1 Zeichen zu viel' : `${formatted} Zeichen zu viel`,
    shorten: (max: string) =>
      `Nachrichten dürfen höchstens ${max} Zeichen lang sein. Bitte kürzen Sie Ihre Nachricht, um sie zu senden.`,
    empty: 'Schreiben Sie zuerst eine Nachricht.',
    wait: 'Bitte warten Sie auf die Antwort, bevor Sie die nächste Nachricht senden.',
    connecting: 'Verbindung zum Gesundheitslotsen wird hergestellt …',
    unavailable: 'Der Gesundheitslotse ist gerade nicht erreichbar.',
    tryAgain: 'Erneut versuchen',
    unconfigured: 'Der Gesundheitslotse ist auf dieser Seite nicht eingerichtet.',
  },
  fr: {
    logLabel: 'Conversation avec l’assistant santé',
    welcome:
      'Posez à l’assistant santé une question générale sur la santé, ou demandez-lui où trouver les soins adaptés. Il ne remplace pas un médecin.',
    examples: 'Vous pouvez par exemple demander :',
    suggestion1: 'Combien d’activité physique me faut-il ?',
    suggestion2: 'Comment mieux dormir ?',
    suggestion3: 'De quels vaccins ai-je besoin avant un voyage ?',
    restored:
      'Ceci est une nouvelle conversation : les messages précédents ne s’affichent plus après le rechargement de la page.',
    you: 'Vous',
    navigator: 'Assistant santé',
    sending: 'Envoi en cours…',
    notSent: 'Non envoyé.',
    retry: 'Renvoyer',
    typing: 'L’assistant santé écrit…',
    urgent: 'Urgent : si vous êtes en danger, appelez immédiatement le numéro d’urgence local.',
    askDoctor: 'Poser la question à un médecin',
    handedOver: 'Votre message se trouve maintenant dans le formulaire de question.',
    noForm:
      'Il n’y a pas de formulaire de question sur cette page. Vous pouvez interroger un médecin depuis la rubrique consultations de ce site.',
    inputLabel: 'Message à l’assistant santé',
    keyHint: 'Entrée pour envoyer, Maj+Entrée pour aller à la ligne.',
    send: 'Envoyer',
    charactersLeft: (n: number, formatted: string) =>
      n <= 1 ? `${formatted} caractère restant` : `${formatted} caractères restants`,
    tooLong: (n: number, formatted: string) =>
      n <= 1 ? `${formatted} caractère en trop` : `${formatted} caractères en trop`,
    shorten: (max: string) =>
      `Un message peut contenir jusqu’à ${max} caractères. Raccourcissez le vôtre pour l’envoyer.`,
    empty: 'Écrivez d’abord un message.',
    wait: 'Veuillez attendre la réponse avant d’envoyer votre prochain message.',
    connecting: 'Connexion à l’assistant santé…',
    unavailable: 'L’assistant santé n’est pas disponible pour le moment.',
    tryAgain: 'Réessayer',
    unconfigured: 'L’assistant santé n’est pas configuré sur cette page.',
  },
  es: {
    logLabel: 'Conversación con el asistente de salud',
    welcome:
      'Haz al asistente de salud una pregunta general sobre salud o pregúntale dónde encontrar la atención adecuada. No sustituye a un médico.',
    examples: 'Puedes preguntar, por ejemplo:',
    suggestion1: '¿Cuánto ejercicio debería hacer?',
    suggestion2: '¿Cómo puedo dormir mejor?',
    suggestion3: '¿Qué vacunas necesito antes de viajar?',
    restored: 'Esta es una conversación nueva: los mensajes anteriores no se muestran al recargar la página.',
    you: 'Tú',
    navigator: 'Asistente de salud',
    sending: 'Enviando…',
    notSent: 'No enviado.',
    retry: 'Reenviar',
    typing: 'El asistente de salud está escribiendo…',
    urgent: 'Urgente: si estás en peligro, llama ahora al número de emergencias local.',
    askDoctor: 'Preguntar a un médico sobre esto',
    handedOver: 'Tu mensaje ya está en el formulario de preguntas.',
    noForm:
      'No hay ningún formulario de preguntas en esta página. Puedes consultar a un médico desde la sección de consultas de este sitio.',
    inputLabel: 'Mensaje para el asistente de salud',
    keyHint: 'Intro envía; Mayús+Intro añade una línea nueva.',
    send: 'Enviar',
    charactersLeft: (n: number, formatted: string) =>
      n === 1 ? 'Queda 1 carácter' : `Quedan ${formatted} caracteres`,
    tooLong: (n: number, formatted: string) =>
      n === 1 ? '1 carácter de más' : `${formatted} caracteres de más`,
    shorten: (max: string) =>
      `Los mensajes pueden tener hasta ${max} caracteres. Acorta el tuyo para enviarlo.`,
    empty: 'Escribe primero un mensaje.',
    wait: 'Espera la respuesta antes de enviar tu siguiente mensaje.',
    connecting: 'Conectando con el asistente de salud…',
    unavailable: 'El asistente de salud no está disponible en este momento.',
    tryAgain: 'Volver a intentarlo',
    unconfigured: 'El asistente de salud no está configurado en esta página.',
  },
  nl: {
    logLabel: 'Gesprek met de gezondheidsgids',
    welcome:
      'Stel de gezondheidsgids een algemene vraag over gezondheid, of vraag waar u de juiste zorg vindt. De gids vervangt geen arts.',
    examples: 'U kunt bijvoorbeeld vragen:',
    suggestion1: 'Hoeveel moet ik bewegen?',
    suggestion2: 'Hoe kan ik beter slapen?',
    suggestion3: 'Welke vaccinaties heb ik nodig voor een reis?',
    restored:
      'Dit is een nieuw gesprek: eerdere berichten worden na het herladen van de pagina niet meer getoond.',
    you: 'U',
    navigator: 'Gezondheidsgids',
    sending: 'Wordt verzonden…',
    notSent: 'Niet verzonden.',
    retry: 'Opnieuw verzenden',
    typing: 'De gezondheidsgids typt…',
    urgent: 'Dringend: bent u in gevaar, bel dan nu het alarmnummer.',
    askDoctor: 'Vraag een arts hiernaar',
    handedOver: 'Uw bericht staat nu in het vragenformulier.',
    noForm:
      'Er staat geen vragenformulier op deze pagina. U kunt een arts een vraag stellen via het onderdeel consulten van deze site.',
    inputLabel: 'Bericht aan de gezondheidsgids',
    keyHint: 'Enter verstuurt, Shift+Enter begint een nieuwe regel.',
    send: 'Verzenden',
    charactersLeft: (n: number, formatted: string) => (n === 1 ? 'Nog 1 teken' : `Nog ${formatted} tekens`),
    tooLong: (n: number, formatted: string) => (n === 1 ? '1 teken te veel' : `${formatted} tekens te veel`),
    shorten: (max: string) =>
      `Berichten mogen maximaal ${max} tekens lang zijn. Maak uw bericht korter om het te verzenden.`,
    empty: 'Schrijf eerst een bericht.',
    wait: 'Wacht op het antwoord voordat u uw volgende bericht verstuurt.',
    connecting: 'Verbinding maken met de gezondheidsgids…',
    unavailable: 'De gezondheidsgids is nu niet beschikbaar.',
    tryAgain: 'Opnieuw proberen',
    unconfigured: 'De gezondheidsgids is op deze pagina niet ingesteld.',
  },
  ar: {
    logLabel: 'المحادثة مع المرشد الصحي',
    welcome:
      'اطرح على المرشد الصحي سؤالاً عاماً عن الصحة، أو اسأله أين تجد الرعاية المناسبة. لا يغني المرشد عن الطبيب.',
    examples: 'يمكنك مثلاً أن تسأل:',
    suggestion1: 'ما مقدار التمارين الرياضية التي أحتاجها؟',
    suggestion2: 'كيف يمكنني أن أنام بشكل أفضل؟',
    suggestion3: 'ما اللقاحات التي أحتاجها قبل السفر؟',
    restored: 'هذه محادثة جديدة: لا تُعرض الرسائل السابقة بعد إعادة تحميل الصفحة.',
    you: 'أنت',
    navigator: 'المرشد الصحي',
    sending: 'جارٍ الإرسال…',
    notSent: 'لم تُرسل.',
    retry: 'إعادة الإرسال',
    typing: 'المرشد الصحي يكتب…',
    urgent: 'عاجل: إذا كنت في خطر، فاتصل برقم الطوارئ المحلي الآن.',
    askDoctor: 'اسأل طبيباً عن هذا',
    handedOver: 'أصبحت رسالتك الآن في نموذج السؤال.',
    noForm: 'لا يوجد نموذج أسئلة في هذه الصفحة. يمكنك سؤال طبيب من قسم الاستشارات في هذا الموقع.',
    inputLabel: 'رسالة إلى المرشد الصحي',
    keyHint: 'اضغط Enter للإرسال، وShift+Enter لبدء سطر جديد.',
    send: 'إرسال',
    charactersLeft: (_n: number, formatted: string) => `الأحرف المتبقية: ${formatted}`,
    tooLong: (_n: number, formatted: string) => `عدد الأحرف الزائدة: ${formatted}`,
    shorten: (max: string) => `يمكن أن تحتوي الرسالة على ${max} حرف كحد أقصى. يرجى اختصار رسالتك لإرسالها.`,
    empty: 'اكتب رسالة أولاً.',
    wait: 'يرجى انتظار الرد قبل إرسال رسالتك التالية.',
    connecting: 'جارٍ الاتصال بالمرشد الصحي…',
    unavailable: 'المرشد الصحي غير متاح حالياً.',
    tryAgain: 'إعادة المحاولة',
    unconfigured: 'المرشد الصحي غير مُعدّ في هذه الصفحة.',
  },
});

/** A message as the chat shows it: a record from the navigator, or the member's, delivered or not. */
interface ChatMessage {
  /** Stable within the page, for rendering; the server's id arrives later for the member's own. */
  key: string;
  role: 'member' | 'navigator';
  text: string;
  createdAt: string;
  status: 'sending' | 'failed' | 'sent';
  messageId?: string;
  conversationId?: string;
  /** The member's key for this message, reused on every retry (S14). */
  idempotencyKey?: string;
  suggestsDoctor?: boolean;
  urgent?: boolean;
  /** For a reply: the member's text it answers, which "Ask a doctor" hands on. */
  prompt?: string;
}

/** What survives a reload in the member's draft store (sessionStorage, S16). */
interface ChatDraft {
  text: string;
  /** Messages the member typed that were not delivered: they come back into the composer. */
  unsent: string[];
  /** A conversation had started: after a reload, say honestly that this one is new. */
  conversation: boolean;
}

/** The public side of `<consult-form>` that the handoff uses. */
interface HandoffTarget extends Element {
  startWith(text: string): void;
}

type ComposerError = 'empty' | 'wait' | 'tooLong';

/**
 * @summary A chat with the health navigator: general health guidance, and a hand-over to a doctor's
 * question form when the navigator suggests one.
 *
 * The conversation starts when the member sends their first message, so no conversation is created for
 * members who never use the chat. Replies are rendered as sanitized markdown; a message that could not
 * be sent stays in the list with a retry that reuses its idempotency key. What the member is typing,
 * and messages that were not sent, survive a reload in the member's draft store.
 *
 * @event navigator-message - A message was sent or received: `{ conversationId, messageId, role }`.
 * @event navigator-handoff - The member chose "Ask a doctor about this": `{ conversationId, handedTo }`;
 *   the text goes to the form directly, never into the event.
 * @event consult-error - Something failed in a way the member saw: `{ code, status, operation }`.
 * @event session-expired - Used alone with `endpoint`: the session ended and could not be renewed.
 *
 * @csspart base - The wrapper of everything.
 * @csspart log - The list of messages, a polite live region.
 * @csspart suggestion - An example question offered before the first message.
 * @csspart message - One message.
 * @csspart retry-button - The button that sends a failed message again.
 * @csspart handoff-button - "Ask a doctor about this" on a reply that suggests a doctor.
 * @csspart typing - The typing indicator while the navigator answers.
 * @csspart composer - The form at the bottom.
 * @csspart input - Its text area.
 * @csspart send-button - Its send button.
 *
 * @cssprop --consult-chat-max-height - How tall the message list grows before it scrolls. Default 28rem.
 */
export class NavigatorChat extends SessionElement {
  static override styles = [...SessionElement.styles, styles];

  /** The id of the `<consult-form>` that "Ask a doctor about this" fills; default the first one on the page. */
  @property({ attribute: 'for' }) htmlFor?: string;

  /** Example questions offered before the first message; default three localized examples. */
  @property({ attribute: false }) suggestions?: string[];

  @state() private messages: ChatMessage[] = [];
  @state() private draft = '';
  @state() private sending = false;
  @state() private composerError?: ComposerError;
  @state() private restored = false;
  @state() private handoff?: { key: string; handedTo: 'consult-form' | 'none' };

  private readonly localize = new LocalizeController(this, strings);

  /** Kept in memory only: the proxy has no way to read a conversation back. */
  #conversationId?: string;
  /** The key for starting the conversation, kept until it has started so a retry cannot start two. */
  #startKey?: string;
  #memberId?: string;
  #counter = 0;
  #statusSource?: SessionManager;
  #onStatus = () => this.requestUpdate();
  /** "Try again" had focus: once the session is back (or failed again), focus goes to what replaced it. */
  #focusWhenSignedIn = false;

  protected override sessionChanged(session: SessionManager | undefined): void {
    this.#statusSource?.removeEventListener('status', this.#onStatus);
    this.#statusSource = session;
    session?.addEventListener('status', this.#onStatus);
    // Alone with an endpoint, the element signs in itself; inside <consult-session> this joins its sign-in.
    if (session && !session.user) void session.ready().catch(() => undefined);
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    super.willUpdate(changed);
    // Another member (or none): nothing of the previous member's conversation stays on screen (S16).
    if (this.user?.id !== this.#memberId) this.#startOver(this.user?.id);
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (changed.has('messages') || changed.has('sending')) {
      const log = this.renderRoot.querySelector<HTMLElement>('[part=log]');
      if (log) log.scrollTop = log.scrollHeight;
    }
    const status = this.activeSession?.status;
    if (this.#focusWhenSignedIn && (this.user || status === 'error' || status === 'expired')) {
      // After "try again" the button is gone: focus goes to the composer, or to the error again.
      this.#focusWhenSignedIn = false;
      if (this.focusIsFree()) {
        this.renderRoot.querySelector<HTMLElement>('[part=input], .notice[tabindex]')?.focus();
      }
    }
  }

  #retrySession(session: SessionManager): void {
    this.#focusWhenSignedIn = Boolean(this.shadowRoot?.activeElement);
    void session.retry().catch(() => undefined);
  }

  #startOver(memberId: string | undefined): void {
    this.#memberId = memberId;
    this.#conversationId = undefined;
    this.#startKey = undefined;
    this.messages = [];
    this.sending = false;
    this.composerError = undefined;
    this.handoff = undefined;
    const saved = memberId ? loadDraft<Partial<ChatDraft>>(memberId, DRAFT) : undefined;
    this.draft = [...(saved?.unsent ?? []), saved?.text ?? ''].filter((text) => text.trim()).join('\n\n');
    this.restored = Boolean(saved?.conversation);
  }

  #persist(): void {
    const memberId = this.#memberId;
    if (!memberId) return;
    const unsent = this.messages.filter((m) => m.role === 'member' && m.status !== 'sent').map((m) => m.text);
    const conversation = Boolean(this.#conversationId) || this.restored;
    if (!this.draft && unsent.length === 0 && !conversation) clearDraft(memberId, DRAFT);
    else saveDraft(memberId, DRAFT, { text: this.draft, unsent, conversation } satisfies ChatDraft);
  }

  #fromRecord(record: NavigatorMessage, conversationId: string, prompt?: string): ChatMessage {
    return {
      key: `m${++this.#counter}`,
      role: record.role,
      text: record.text,
      createdAt: record.createdAt,
      status: 'sent',
      messageId: record.messageId,
      conversationId,
      ...(record.suggestsDoctor ? { suggestsDoctor: true } : {}),
      ...(record.urgent ? { urgent: true } : {}),
      ...(prompt !== undefined ? { prompt } : {}),
    };
  }

  #announce(messages: ChatMessage[]): void {
    for (const m of messages) {
      if (m.conversationId && m.messageId) {
        this.emit(
          new NavigatorMessageEvent({
            conversationId: m.conversationId,
            messageId: m.messageId,
            role: m.role,
          }),
        );
      }
    }
  }

  #focusInput(): void {
    this.renderRoot.querySelector<HTMLTextAreaElement>('[part=input]')?.focus();
  }

  #submit(): void {
    const text = this.draft;
    if (this.sending) {
      this.composerError = 'wait';
      return;
    }
    if (!text.trim()) {
      this.composerError = 'empty';
      return;
    }
    if (text.length > MAX_LENGTH) {
      this.composerError = 'tooLong';
      return;
    }
    const message: ChatMessage = {
      key: `m${++this.#counter}`,
      role: 'member',
      text: text.trim(),
      createdAt: new Date().toISOString(),
      status: 'sending',
      idempotencyKey: newIdempotencyKey(),
    };
    this.composerError = undefined;
    this.messages = [...this.messages, message];
    this.draft = '';
    void this.#deliver(message);
  }

  #retry(message: ChatMessage): void {
    if (this.sending) {
      this.composerError = 'wait';
      return;
    }
    // The retry button goes away as the message is sent again: focus stays in the element, in the composer.
    const hadFocus = Boolean(this.shadowRoot?.activeElement);
    // Sent now, so it moves to the end: its reply then follows it.
    this.messages = [...this.messages.filter((m) => m.key !== message.key), message];
    void this.#deliver(message);
    if (hadFocus) this.#focusInput();
  }

  #setStatus(key: string, status: ChatMessage['status'], extra: Partial<ChatMessage> = {}): void {
    this.messages = this.messages.map((m) => (m.key === key ? { ...m, ...extra, status } : m));
  }

  async #deliver(message: ChatMessage): Promise<void> {
    const session = this.activeSession;
    const memberId = this.#memberId;
    if (!session || !memberId) return;
    void preloadMarkdown();
    this.sending = true;
    this.#setStatus(message.key, 'sending');
    this.#persist();
    let operation = 'startNavigatorConversation';
    try {
      const conversationId = await this.#ensureConversation(session, memberId);
      operation = 'sendNavigatorMessage';
      const reply = await session.client.sendNavigatorMessage(
        { conversationId, message: message.text },
        message.idempotencyKey ? { idempotencyKey: message.idempotencyKey } : {},
      );
      if (this.#memberId !== memberId) return;
      const own = reply.messages.find((m) => m.role === 'member');
      const answers = reply.messages
        .filter((m) => m.role === 'navigator')
        .map((m) => this.#fromRecord(m, reply.conversationId, message.text));
      this.#setStatus(message.key, 'sent', {
        conversationId: reply.conversationId,
        ...(own ? { messageId: own.messageId, createdAt: own.createdAt } : {}),
      });
      this.messages = [...this.messages, ...answers];
      this.#announce([...this.messages.filter((m) => m.key === message.key), ...answers]);
    } catch (error) {
      if (this.#memberId !== memberId) return;
      // The conversation is no longer the member's here (the proxy forgot it): a retry starts a new one.
      if (
        operation === 'sendNavigatorMessage' &&
        error instanceof ApiError &&
        [403, 404].includes(error.status)
      ) {
        this.#conversationId = undefined;
      }
      this.#setStatus(message.key, 'failed');
      this.reportError(error, operation);
    } finally {
      if (this.#memberId === memberId) {
        this.sending = false;
        if (this.composerError === 'wait') this.composerError = undefined;
        this.#persist();
      }
    }
  }

  async #ensureConversation(session: SessionManager, memberId: string): Promise<string> {
    if (this.#conversationId) return this.#conversationId;
    this.#startKey ??= newIdempotencyKey();
    const conversation = await session.client.startNavigatorConversation(
      memberId,
      {},
      { idempotencyKey: this.#startKey },
    );
    if (this.#memberId !== memberId) throw new DOMException('Another member signed in', 'AbortError');
    this.#conversationId = conversation.conversationId;
    this.#startKey = undefined;
    this.restored = false;
    // The navigator's greeting comes first, before the message that started the conversation.
    const opening = conversation.messages.map((m) => this.#fromRecord(m, conversation.conversationId));
    this.messages = [...opening, ...this.messages];
    this.#announce(opening);
    return conversation.conversationId;
  }

  #findForm(): HandoffTarget | undefined {
    const root = this.getRootNode() as Document | ShadowRoot;
    const candidate: Element | null = this.htmlFor
      ? (root.getElementById?.(this.htmlFor) ?? document.getElementById(this.htmlFor))
      : (root.querySelector?.('consult-form') ?? document.querySelector('consult-form'));
    return candidate && typeof (candidate as Partial<HandoffTarget>).startWith === 'function'
      ? (candidate as HandoffTarget)
      : undefined;
  }

  #handOff(reply: ChatMessage): void {
    const text =
      reply.prompt ??
      this.messages.filter((m) => m.role === 'member' && m.status === 'sent').at(-1)?.text ??
      '';
    const form = this.#findForm();
    form?.startWith(text);
    const handedTo = form ? 'consult-form' : 'none';
    this.handoff = { key: reply.key, handedTo };
    this.emit(new NavigatorHandoffEvent({ conversationId: reply.conversationId ?? '', handedTo }));
  }

  #onInput(event: InputEvent): void {
    this.draft = (event.target as HTMLTextAreaElement).value;
    if (this.composerError === 'empty' && this.draft.trim()) this.composerError = undefined;
    if (this.composerError === 'tooLong' && this.draft.length <= MAX_LENGTH) this.composerError = undefined;
    this.#persist();
  }

  #onKeydown(event: KeyboardEvent): void {
    // Enter sends; Shift+Enter keeps its newline; Enter that confirms an input method's composition is not a send.
    if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
    event.preventDefault();
    this.#submit();
  }

  #onSubmit(event: SubmitEvent): void {
    event.preventDefault();
    this.#submit();
    this.#focusInput();
  }

  #useSuggestion(text: string): void {
    this.draft = text;
    this.composerError = undefined;
    this.#persist();
    this.#focusInput();
  }

  protected override render() {
    const session = this.activeSession;
    const failed = session?.status === 'error' || session?.status === 'expired';
    const loading = Boolean(session) && !this.user && !failed;
    return html`<div
      part="base"
      lang=${this.localize.language}
      dir=${this.localize.dir}
      aria-busy=${loading ? 'true' : 'false'}
    >
      ${
        !session
          ? html`<p class="notice error" role="alert">${this.localize.t('unconfigured')}</p>`
          : this.user
            ? this.#renderChat()
            : failed
              ? html`<div class="notice error" role="alert" tabindex="-1">
                  <p>${this.localize.t('unavailable')}</p>
                  <button type="button" @click=${() => this.#retrySession(session)}>
                    ${this.localize.t('tryAgain')}
                  </button>
                </div>`
              : html`<p class="notice" role="status">${this.localize.t('connecting')}</p>`
      }
    </div>`;
  }

  #renderChat() {
    const t = this.localize;
    const format = t.format;
    return html`
      ${this.messages.length === 0 ? this.#renderWelcome() : nothing}
      <div
        part="log"
        role="log"
        aria-live="polite"
        aria-relevant="additions"
        aria-label=${t.t('logLabel')}
        tabindex=${this.messages.length ? '0' : '-1'}
      >
        ${repeat(
          this.messages,
          (m) => m.key,
          (m) => this.#renderMessage(m, format.dateTime),
        )}
      </div>
      <div role="status">
        ${
          this.sending
            ? html`<span part="typing" class="typing"
                ><span class="dots" aria-hidden="true"><span></span><span></span><span></span></span>${t.t(
                  'typing',
                )}</span
              >`
            : nothing
        }
      </div>
      ${this.#renderComposer()}
    `;
  }

  #renderWelcome() {
    const t = this.localize;
    const suggestions = this.suggestions ?? [t.t('suggestion1'), t.t('suggestion2'), t.t('suggestion3')];
    return html`<div class="welcome">
      ${this.restored ? html`<p class="notice">${t.t('restored')}</p>` : nothing}
      <p>${t.t('welcome')}</p>
      ${
        suggestions.length
          ? html`<p id="examples">${t.t('examples')}</p>
              <ul class="suggestions" aria-labelledby="examples">
                ${suggestions.map(
                  (text) =>
                    html`<li>
                      <button type="button" part="suggestion" @click=${() => this.#useSuggestion(text)}>
                        ${text}
                      </button>
                    </li>`,
                )}
              </ul>`
          : nothing
      }
    </div>`;
  }

  #renderMessage(m: ChatMessage, dateTime: (value: string) => string) {
    const t = this.localize;
    const fromNavigator = m.role === 'navigator';
    const handoff = this.handoff?.key === m.key ? this.handoff.handedTo : undefined;
    return html`<div
      part="message"
      class=${classMap({ message: true, [m.role]: true, urgent: Boolean(m.urgent), failed: m.status === 'failed' })}
    >
      <p class="meta">
        <span class="sender">${fromNavigator ? t.t('navigator') : t.t('you')}</span>
        <time datetime=${m.createdAt}>${dateTime(m.createdAt)}</time>
      </p>
      ${m.urgent ? html`<p class="urgent-label">${t.t('urgent')}</p>` : nothing}
      ${
        fromNavigator
          ? html`<div class="markdown">${markdown(m.text)}</div>`
          : html`<p class="text">${m.text}</p>`
      }
      ${m.status === 'sending' ? html`<p class="state">${t.t('sending')}</p>` : nothing}
      ${
        m.status === 'failed'
          ? html`<p class="state error">
              <span>${t.t('notSent')}</span>
              <button
                type="button"
                part="retry-button"
                aria-disabled=${this.sending ? 'true' : 'false'}
                @click=${() => this.#retry(m)}
              >
                ${t.t('retry')}
              </button>
            </p>`
          : nothing
      }
      ${
        fromNavigator && m.suggestsDoctor
          ? html`<div class="actions">
              <button type="button" part="handoff-button" @click=${() => this.#handOff(m)}>
                ${t.t('askDoctor')}
              </button>
              ${
                handoff
                  ? html`<p class="hint">${handoff === 'none' ? t.t('noForm') : t.t('handedOver')}</p>`
                  : nothing
              }
            </div>`
          : nothing
      }
    </div>`;
  }

  #renderComposer() {
    const t = this.localize;
    const length = this.draft.length;
    const over = length - MAX_LENGTH;
    const counted = length >= WARN_LENGTH;
    const describedBy = ['key-hint', counted ? 'count' : '', this.composerError ? 'composer-error' : '']
      .filter(Boolean)
      .join(' ');
    const error =
      this.composerError === 'empty'
        ? t.t('empty')
        : this.composerError === 'wait'
          ? t.t('wait')
          : this.composerError === 'tooLong'
            ? t.t('shorten', t.format.number(MAX_LENGTH))
            : undefined;
    return html`<form part="composer" novalidate @submit=${this.#onSubmit}>
      <label class="visually-hidden" for="input">${t.t('inputLabel')}</label>
      <textarea
        id="input"
        part="input"
        rows="2"
        .value=${live(this.draft)}
        aria-describedby=${describedBy}
        aria-invalid=${over > 0 || this.composerError === 'empty' ? 'true' : 'false'}
        @input=${this.#onInput}
        @keydown=${this.#onKeydown}
      ></textarea>
      <button
        part="send-button"
        class="primary"
        type="submit"
        aria-disabled=${this.sending ? 'true' : 'false'}
      >
        ${t.t('send')}
      </button>
      <div class="composer-notes">
        <p id="key-hint">${t.t('keyHint')}</p>
        ${
          counted
            ? html`<p id="count" class=${over > 0 ? 'error' : ''}>
                ${
                  over > 0
                    ? t.t('tooLong', over, t.format.number(over))
                    : t.t('charactersLeft', MAX_LENGTH - length, t.format.number(MAX_LENGTH - length))
                }
              </p>`
            : nothing
        }
        ${error ? html`<p id="composer-error" class="error" role="alert">${error}</p>` : nothing}
      </div>
    </form>`;
  }
}
