import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { live } from 'lit/directives/live.js';
import { ApiError } from '../../client/errors.js';
import { newIdempotencyKey } from '../../client/index.js';
import {
  MAX_QUESTION_LENGTH,
  MAX_QUESTIONS_PER_CONSULTATION,
  type Consultation,
  type Professional,
  type QuestionItem,
} from '../../client/types.js';
import { SessionElement } from '../shared/consult-element.js';
import { clearDraft, loadDraft, saveDraft } from '../shared/drafts.js';
import { ConsultAnsweredEvent, ConsultFollowupEvent } from '../shared/events.js';
import { LiveUpdatesController } from '../shared/live-updates.js';
import { defineStrings, LocalizeController } from '../shared/localize.js';
import { markdown, preloadMarkdown } from '../shared/markdown.js';
import type { SessionManager } from '../shared/session.js';
import { statusBadge, statusStyles } from '../shared/status.js';
import { styles } from './consult-thread.styles.js';
import { isOlder } from '../shared/consultations.js';

const strings = defineStrings({
  en: {
    loading: 'Loading the consultation…',
    notFound: 'This consultation could not be found.',
    loadFailed: 'We could not load this consultation.',
    retry: 'Try again',
    none: 'No consultation is selected.',
    thread: 'Questions and answers',
    askedOn: (date: string) => `Asked on ${date}`,
    yourQuestion: 'Your question',
    followupQuestion: 'Your follow-up question',
    answer: 'Answer',
    waiting: 'Waiting for a doctor',
    working: 'A doctor is working on your question',
    notAnswered: 'This question was not answered.',
    answeredBy: 'Answered by',
    licence: (number: string, countries: string) => `Licence ${number} (${countries})`,
    profile: (name: string) => `Profile of ${name}`,
    attachments: 'Attachments',
    attachmentsLeftOut: (n: number, formatted: string) =>
      n === 1
        ? 'One attachment was left out because its link is not secure.'
        : `${formatted} attachments were left out because their links are not secure.`,
    followupLabel: 'Ask a follow-up question',
    used: (used: string, max: string) => `${used} of ${max} questions used`,
    send: 'Send question',
    sending: 'Sending…',
    emptyQuestion: 'Please write your question before sending it.',
    sendFailed: 'Your question could not be sent. Please try again; your text is kept.',
    limitReached: (max: string) => `You have used all ${max} questions of this consultation.`,
    closedReason: 'This consultation was closed; start a new one to ask more.',
    canceledReason: 'This consultation was canceled; start a new one to ask more.',
    unsent: 'Your unsent question (copy it into a new consultation)',
    answered: 'A doctor has answered your question',
    sent: 'Your question was sent',
  },
  de: {
    loading: 'Die Beratung wird geladen…',
    notFound: 'Diese Beratung wurde nicht gefunden.',
    loadFailed: 'Die Beratung konnte nicht geladen werden.',
    retry: 'Erneut versuchen',
    none: 'Keine Beratung ausgewählt.',
    thread: 'Fragen und Antworten',
    askedOn: (date: string) => `Gestellt am ${date}`,
    yourQuestion: 'Ihre Frage',
    followupQuestion: 'Ihre Folgefrage',
    answer: 'Antwort',
    waiting: 'Wartet auf einen Arzt',
    working: 'Ein Arzt bearbeitet Ihre Frage',
    notAnswered: 'Diese Frage wurde nicht beantwortet.',
    answeredBy: 'Beantwortet von',
    licence: (number: string, countries: string) => `Zulassung ${number} (${countries})`,
    profile: (name: string) => `Profil von ${name}`,
    attachments: 'Anhänge',
    attachmentsLeftOut: (n: number, formatted: string) =>
      n === 1
        ? 'Ein Anhang wurde weggelassen, weil sein Link nicht sicher ist.'
        : `${formatted} Anhänge wurden weggelassen, weil ihre Links nicht sicher sind.`,
    followupLabel: 'Eine Folgefrage stellen',
    used: (used: string, max: string) => `${used} von ${max} Fragen genutzt`,
    send: 'Frage senden',
    sending: 'Wird gesendet…',
    emptyQuestion: 'Bitte schreiben Sie Ihre Frage, bevor Sie sie senden.',
    sendFailed:
      'Ihre Frage konnte nicht gesendet werden. Bitte versuchen Sie es erneut; Ihr Text bleibt erhalten.',
    limitReached: (max: string) => `Sie haben alle ${max} Fragen dieser Beratung genutzt.`,
    closedReason: 'Diese Beratung wurde abgeschlossen; starten Sie eine neue, um weitere Fragen zu stellen.',
    canceledReason: 'Diese Beratung wurde abgebrochen; starten Sie eine neue, um weitere Fragen zu stellen.',
    unsent: 'Ihre nicht gesendete Frage (kopieren Sie sie in eine neue Beratung)',
    answered: 'Ein Arzt hat Ihre Frage beantwortet',
    sent: 'Ihre Frage wurde gesendet',
  },
  fr: {
    loading: 'Chargement de la consultation…',
    notFound: 'Cette consultation est introuvable.',
    loadFailed: 'Impossible de charger cette consultation.',
    retry: 'Réessayer',
    none: 'Aucune consultation sélectionnée.',
    thread: 'Questions et réponses',
    askedOn: (date: string) => `Posée le ${date}`,
    yourQuestion: 'Votre question',
    followupQuestion: 'Votre question complémentaire',
    answer: 'Réponse',
    waiting: 'En attente d’un médecin',
    working: 'Un médecin traite votre question',
    notAnswered: 'Cette question n’a pas reçu de réponse.',
    answeredBy: 'Réponse de',
    licence: (number: string, countries: string) => `Autorisation d’exercer ${number} (${countries})`,
    profile: (name: string) => `Profil de ${name}`,
    attachments: 'Pièces jointes',
    attachmentsLeftOut: (n: number, formatted: string) =>
      n === 1
        ? 'Une pièce jointe a été omise car son lien n’est pas sécurisé.'
        : `${formatted} pièces jointes ont été omises car leurs liens ne sont pas sécurisés.`,
    followupLabel: 'Poser une question complémentaire',
    used: (used: string, max: string) => `${used} sur ${max} questions utilisées`,
    send: 'Envoyer la question',
    sending: 'Envoi en cours…',
    emptyQuestion: 'Veuillez écrire votre question avant de l’envoyer.',
    sendFailed: 'Votre question n’a pas pu être envoyée. Veuillez réessayer ; votre texte est conservé.',
    limitReached: (max: string) => `Vous avez utilisé les ${max} questions de cette consultation.`,
    closedReason:
      'Cette consultation a été clôturée ; commencez-en une nouvelle pour poser d’autres questions.',
    canceledReason:
      'Cette consultation a été annulée ; commencez-en une nouvelle pour poser d’autres questions.',
    unsent: 'Votre question non envoyée (copiez-la dans une nouvelle consultation)',
    answered: 'Un médecin a répondu à votre question',
    sent: 'Votre question a été envoyée',
  },
  es: {
    loading: 'Cargando la consulta…',
    notFound: 'No se encontró esta consulta.',
    loadFailed: 'No pudimos cargar esta consulta.',
    retry: 'Reintentar',
    none: 'No hay ninguna consulta seleccionada.',
    thread: 'Preguntas y respuestas',
    askedOn: (date: string) => `Enviada el ${date}`,
    yourQuestion: 'Tu pregunta',
    followupQuestion: 'Tu pregunta de seguimiento',
    answer: 'Respuesta',
    waiting: 'Esperando a un médico',
    working: 'Un médico está atendiendo tu pregunta',
    notAnswered: 'Esta pregunta no recibió respuesta.',
    answeredBy: 'Respondida por',
    licence: (number: string, countries: string) => `Licencia ${number} (${countries})`,
    profile: (name: string) => `Perfil de ${name}`,
    attachments: 'Archivos adjuntos',
    attachmentsLeftOut: (n: number, formatted: string) =>
      n === 1
        ? 'Se omitió un archivo adjunto porque su enlace no es seguro.'
        : `Se omitieron ${formatted} archivos adjuntos porque sus enlaces no son seguros.`,
    followupLabel: 'Haz una pregunta de seguimiento',
    used: (used: string, max: string) => `${used} de ${max} preguntas usadas`,
    send: 'Enviar pregunta',
    sending: 'Enviando…',
    emptyQuestion: 'Escribe tu pregunta antes de enviarla.',
    sendFailed: 'No se pudo enviar tu pregunta. Inténtalo de nuevo; tu texto se conserva.',
    limitReached: (max: string) => `Has usado las ${max} preguntas de esta consulta.`,
    closedReason: 'Esta consulta se cerró; inicia una nueva para hacer más preguntas.',
    canceledReason: 'Esta consulta se canceló; inicia una nueva para hacer más preguntas.',
    unsent: 'Tu pregunta sin enviar (cópiala en una nueva consulta)',
    answered: 'Un médico ha respondido a tu pregunta',
    sent: 'Tu pregunta se ha enviado',
  },
  nl: {
    loading: 'Het consult wordt geladen…',
    notFound: 'Dit consult is niet gevonden.',
    loadFailed: 'We konden dit consult niet laden.',
    retry: 'Opnieuw proberen',
    none: 'Er is geen consult geselecteerd.',
    thread: 'Vragen en antwoorden',
    askedOn: (date: string) => `Gesteld op ${date}`,
    yourQuestion: 'Uw vraag',
    followupQuestion: 'Uw vervolgvraag',
    answer: 'Antwoord',
    waiting: 'Wacht op een arts',
    working: 'Een arts behandelt uw vraag',
    notAnswered: 'Deze vraag is niet beantwoord.',
    answeredBy: 'Beantwoord door',
    licence: (number: string, countries: string) => `Registratie ${number} (${countries})`,
    profile: (name: string) => `Profiel van ${name}`,
    attachments: 'Bijlagen',
    attachmentsLeftOut: (n: number, formatted: string) =>
      n === 1
        ? 'Eén bijlage is weggelaten omdat de link niet veilig is.'
        : `${formatted} bijlagen zijn weggelaten omdat de links niet veilig zijn.`,
    followupLabel: 'Stel een vervolgvraag',
    used: (used: string, max: string) => `${used} van ${max} vragen gebruikt`,
    send: 'Vraag versturen',
    sending: 'Bezig met versturen…',
    emptyQuestion: 'Schrijf eerst uw vraag voordat u die verstuurt.',
    sendFailed: 'Uw vraag kon niet worden verstuurd. Probeer het opnieuw; uw tekst blijft bewaard.',
    limitReached: (max: string) => `U hebt alle ${max} vragen van dit consult gebruikt.`,
    closedReason: 'Dit consult is afgesloten; begin een nieuw consult om meer te vragen.',
    canceledReason: 'Dit consult is geannuleerd; begin een nieuw consult om meer te vragen.',
    unsent: 'Uw niet-verstuurde vraag (kopieer die naar een nieuw consult)',
    answered: 'Een arts heeft uw vraag beantwoord',
    sent: 'Uw vraag is verstuurd',
  },
  ar: {
    loading: 'جارٍ تحميل الاستشارة…',
    notFound: 'تعذّر العثور على هذه الاستشارة.',
    loadFailed: 'تعذّر تحميل هذه الاستشارة.',
    retry: 'إعادة المحاولة',
    none: 'لم يتم اختيار أي استشارة.',
    thread: 'الأسئلة والأجوبة',
    askedOn: (date: string) => `تاريخ السؤال: ${date}`,
    yourQuestion: 'سؤالك',
    followupQuestion: 'سؤال المتابعة',
    answer: 'الإجابة',
    waiting: 'في انتظار طبيب',
    working: 'يعمل طبيب على سؤالك',
    notAnswered: 'لم تتم الإجابة عن هذا السؤال.',
    answeredBy: 'أجاب عنه',
    licence: (number: string, countries: string) => `الترخيص ${number} (${countries})`,
    profile: (name: string) => `الملف المهني لـ ${name}`,
    attachments: 'المرفقات',
    attachmentsLeftOut: (n: number, formatted: string) =>
      n === 1
        ? 'تم حذف مرفق واحد لأن رابطه غير آمن.'
        : `عدد المرفقات المحذوفة لأن روابطها غير آمنة: ${formatted}`,
    followupLabel: 'اطرح سؤال متابعة',
    used: (used: string, max: string) => `تم استخدام ${used} من ${max} أسئلة`,
    send: 'إرسال السؤال',
    sending: 'جارٍ الإرسال…',
    emptyQuestion: 'يرجى كتابة سؤالك قبل إرساله.',
    sendFailed: 'تعذّر إرسال سؤالك. يرجى المحاولة مرة أخرى؛ نصّك محفوظ.',
    limitReached: (max: string) => `لقد استخدمت جميع الأسئلة المتاحة في هذه الاستشارة (${max}).`,
    closedReason: 'تم إغلاق هذه الاستشارة؛ ابدأ استشارة جديدة لطرح المزيد من الأسئلة.',
    canceledReason: 'تم إلغاء هذه الاستشارة؛ ابدأ استشارة جديدة لطرح المزيد من الأسئلة.',
    unsent: 'سؤالك الذي لم يُرسل (انسخه إلى استشارة جديدة)',
    answered: 'أجاب طبيب عن سؤالك',
    sent: 'تم إرسال سؤالك',
  },
});

type Phase = 'idle' | 'loading' | 'error' | 'done';
type SendProblem = 'empty' | 'failed' | 'limit' | 'closed';

/** What is kept of the follow-up box per member and consultation (S16). */
interface FollowupDraft {
  text: string;
  /** The key of an attempt that failed, reused while the text is the same (S14). */
  attempt?: { key: string; text: string };
}

const draftName = (consultationId: string) => `followup:${consultationId}`;

/** The URL when it is absolute https, else undefined: nothing else becomes a link. */
function httpsUrl(raw: string | undefined): URL | undefined {
  if (!raw) return undefined;
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

function fileName(url: URL): string {
  const last = url.pathname.split('/').filter(Boolean).at(-1);
  if (!last) return url.hostname;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

const isWaiting = (c: Consultation | undefined): boolean =>
  !!c && (c.status === 'open' || c.status === 'claimed') && c.questions.some((q) => q.answer === undefined);

/**
 * @summary One consultation: each question with its answer (sanitized markdown), the professional
 * who answered, attachments as safe links, and a follow-up box that counts the questions used and
 * closes at the cap or when the consultation has ended. New answers appear live.
 *
 * @event consult-answered - A question shown here received its answer (`{ consultationId, status }`).
 * @event consult-followup - The member asked a follow-up question (`{ consultationId, questionsUsed }`).
 * @event consult-error - Loading or sending failed (`{ code, status, operation }`).
 *
 * @csspart base - The wrapper of everything.
 * @csspart status - The status badge.
 * @csspart question - A question the member asked.
 * @csspart answer - An answer, rendered from markdown.
 * @csspart professional - Who answered: name, title, specialties, licences and profile link.
 * @csspart followup - The follow-up box, open or closed.
 * @csspart followup-input - Its text area.
 * @csspart submit-button - Its send button.
 * @csspart notice - Messages: no consultation, load errors, why the box is closed, send errors.
 *
 * @cssprop --consult-thread-gap - Space between the questions.
 * @cssprop --consult-thread-answer-background - Background of an answer.
 */
export class ConsultThread extends SessionElement {
  static override styles = [...SessionElement.styles, statusStyles, styles];

  /** The id of the consultation to show. */
  @property({ attribute: 'consultation-id' }) consultationId?: string;

  /** The consultation itself, when the page has it already; skips the first request. */
  @property({ attribute: false }) consultation?: Consultation;

  /** Milliseconds between checks for an answer while the live stream is down. */
  @property({ attribute: 'poll-interval', type: Number }) pollInterval = 30_000;

  @state() private phase: Phase = 'idle';
  @state() private loadError?: unknown;
  @state() private draft = '';
  @state() private sending = false;
  @state() private sendProblem?: SendProblem;
  @state() private announcement = '';

  private readonly localize = new LocalizeController(this, strings);

  readonly #live = new LiveUpdatesController(this, {
    onUpdate: ({ consultation }) => {
      if (consultation.consultationId === this.consultationId && this.phase === 'done') {
        this.#apply(consultation);
      }
    },
    poll: async (session, signal) => {
      const id = this.consultationId;
      if (!id) return;
      const consultation = await session.client.getConsultation(id, { signal });
      // Another consultation may have been opened while this one was on its way.
      if (!signal.aborted && id === this.consultationId) this.#apply(consultation);
    },
    shouldPoll: () => isWaiting(this.consultation),
    interval: () => this.pollInterval,
  });

  /** What the consultation on screen was loaded for; a change of any of them loads again. */
  #shownFor: { id?: string; session?: SessionManager; userId?: string } = {};
  #load?: AbortController;
  #attempt?: { key: string; text: string };
  #focusAfterUpdate?: string;
  /** "Try again" had focus: once the consultation (or the error) is back, focus goes to it. */
  #focusWhenLoaded = false;

  override connectedCallback(): void {
    super.connectedCallback();
    // Warm the renderer now; the first paint shows the text plainly until it is ready.
    void preloadMarkdown().catch(() => undefined);
    if (this.hasUpdated) this.requestUpdate();
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    if (this.phase === 'loading') {
      this.#load?.abort();
      this.#shownFor = {};
    }
  }

  protected override sessionChanged(session: SessionManager | undefined): void {
    this.#live.setSession(session);
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    const before = changed.get('consultation') as Consultation | undefined;
    if (
      before &&
      this.consultation?.consultationId === before.consultationId &&
      isOlder(this.consultation, before)
    ) {
      // A page that renders again hands back the record it first gave: the newer one stays.
      this.consultation = before;
    }
    let idChanged = changed.has('consultationId');
    // A consultation set on its own brings its id; set together with another id, the id wins.
    if (
      changed.has('consultation') &&
      this.consultation &&
      !idChanged &&
      this.consultation.consultationId !== this.consultationId
    ) {
      this.consultationId = this.consultation.consultationId;
      idChanged = true;
    }
    if (this.consultation && this.consultation.consultationId !== this.consultationId) {
      this.consultation = undefined;
    }
    if (idChanged || changed.has('user')) this.#restoreDraft();
    this.#ensureLoaded();
  }

  protected override updated(changed: PropertyValues<this>): void {
    super.updated(changed);
    if (this.#focusWhenLoaded && this.phase !== 'loading') {
      // After "try again" the button is gone: focus goes to what replaced it, unless the member moved on.
      this.#focusWhenLoaded = false;
      if (this.focusIsFree()) this.#focusAfterUpdate ??= '#question-0, [part~="notice"][tabindex]';
    }
    if (this.#focusAfterUpdate) {
      this.renderRoot.querySelector<HTMLElement>(this.#focusAfterUpdate)?.focus();
      this.#focusAfterUpdate = undefined;
    }
  }

  #retry = (): void => {
    this.#focusWhenLoaded = Boolean(this.shadowRoot?.activeElement);
    this.reload();
  };

  /** Loads the consultation again, for example after an error. */
  reload(): void {
    const id = this.consultationId;
    const session = this.activeSession;
    if (id && session) {
      this.#load?.abort();
      void this.#fetch(id, session);
    } else {
      this.#shownFor = {};
      this.requestUpdate();
    }
  }

  #ensureLoaded(): void {
    const id = this.consultationId;
    const session = this.activeSession;
    const userId = this.user?.id;
    const previous = this.#shownFor;
    const otherMember = previous.userId !== undefined && userId !== undefined && userId !== previous.userId;
    if (!otherMember && 'id' in previous && previous.id === id && previous.session === session) {
      if (userId !== undefined) previous.userId = userId;
      return;
    }
    this.#shownFor = { id, session, userId: userId ?? previous.userId };
    this.#load?.abort();
    if (otherMember) this.consultation = undefined;
    this.sendProblem = undefined;
    if (!id) {
      this.phase = 'idle';
    } else if (this.consultation) {
      this.phase = 'done';
    } else if (!session) {
      this.loadError = undefined;
      this.phase = 'error';
    } else {
      void this.#fetch(id, session);
    }
  }

  async #fetch(id: string, session: SessionManager): Promise<void> {
    const controller = (this.#load = new AbortController());
    this.phase = 'loading';
    this.loadError = undefined;
    try {
      const consultation = await session.client.getConsultation(id, { signal: controller.signal });
      if (controller.signal.aborted) return;
      this.#apply(consultation);
      this.phase = 'done';
    } catch (error) {
      if (controller.signal.aborted) return;
      this.loadError = error;
      this.phase = 'error';
      this.reportError(error, 'getConsultation');
    }
  }

  /** Shows a newer record of the consultation, and tells the member what changed. */
  #apply(next: Consultation): void {
    const previous =
      this.consultation?.consultationId === next.consultationId ? this.consultation : undefined;
    // A slow poll must not take back a question the member has just asked.
    if (previous && isOlder(next, previous)) return;
    this.consultation = next;
    if (!previous) return;
    const answered = next.questions.some(
      (item, i) =>
        item.answer !== undefined && previous.questions[i] && previous.questions[i].answer === undefined,
    );
    if (answered) {
      this.#announce(this.localize.t('answered'));
      this.emit(new ConsultAnsweredEvent({ consultationId: next.consultationId, status: next.status }));
    } else if (next.status !== previous.status) {
      if (next.status === 'claimed') this.#announce(this.localize.t('working'));
      if (next.status === 'closed') this.#announce(this.localize.t('closedReason'));
      if (next.status === 'canceled') this.#announce(this.localize.t('canceledReason'));
    }
  }

  #announce(text: string): void {
    // The same words twice in a row would not be read again: make them differ invisibly.
    this.announcement = this.announcement === text ? `${text}\u00a0` : text;
  }

  #restoreDraft(): void {
    const id = this.consultationId;
    const saved = this.user && id ? loadDraft<FollowupDraft>(this.user.id, draftName(id)) : undefined;
    this.draft = saved?.text ?? '';
    this.#attempt = saved?.attempt;
  }

  #saveDraft(): void {
    const id = this.consultationId;
    if (!this.user || !id) return;
    if (!this.draft && !this.#attempt) {
      clearDraft(this.user.id, draftName(id));
      return;
    }
    const value: FollowupDraft = { text: this.draft, ...(this.#attempt ? { attempt: this.#attempt } : {}) };
    saveDraft(this.user.id, draftName(id), value);
  }

  #onInput = (event: Event): void => {
    this.draft = (event.target as HTMLTextAreaElement).value;
    if (this.sendProblem === 'empty' && this.draft.trim()) this.sendProblem = undefined;
    this.#saveDraft();
  };

  #onKeydown = (event: KeyboardEvent): void => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      (event.target as HTMLTextAreaElement).form?.requestSubmit();
    }
  };

  #onSubmit = async (event: SubmitEvent): Promise<void> => {
    event.preventDefault();
    const consultation = this.consultation;
    const session = this.activeSession;
    if (this.sending || !consultation) return;
    if (!session) {
      this.sendProblem = 'failed';
      return;
    }
    const text = this.draft.trim();
    if (!text) {
      this.sendProblem = 'empty';
      this.#focusAfterUpdate = '#followup-input';
      return;
    }
    // The same words after a failure keep their key, so the proxy cannot record them twice (S14).
    const attempt = this.#attempt?.text === text ? this.#attempt : { key: newIdempotencyKey(), text };
    this.#attempt = attempt;
    this.#saveDraft();
    this.sending = true;
    this.sendProblem = undefined;
    try {
      const updated = await session.client.addConsultationFollowUp(
        consultation.consultationId,
        { question: text },
        { idempotencyKey: attempt.key },
      );
      this.#attempt = undefined;
      this.draft = '';
      if (this.user) clearDraft(this.user.id, draftName(consultation.consultationId));
      this.#apply(updated);
      this.#announce(this.localize.t('sent'));
      this.#focusAfterUpdate = `#question-${updated.questions.length - 1}`;
      this.emit(
        new ConsultFollowupEvent({
          consultationId: updated.consultationId,
          questionsUsed: updated.questions.length,
        }),
      );
    } catch (error) {
      const code = error instanceof ApiError && error.status === 409 ? error.code : undefined;
      if (code === 'question_limit_reached' || code === 'consultation_closed') {
        this.sendProblem = code === 'question_limit_reached' ? 'limit' : 'closed';
        this.#focusAfterUpdate = '#followup-notice';
        // The server knows more than the page: show what it has.
        void session.client
          .getConsultation(consultation.consultationId)
          .then((fresh) => this.#apply(fresh))
          .catch(() => undefined);
      } else {
        this.sendProblem = 'failed';
        this.#focusAfterUpdate = '#followup-input';
      }
      this.reportError(error, 'addConsultationFollowUp');
    } finally {
      this.sending = false;
    }
  };

  /** Why no more questions can be asked, or undefined while the box is open. */
  #closedReason(c: Consultation): string | undefined {
    const { localize } = this;
    if (c.status === 'canceled') return localize.t('canceledReason');
    if (c.status === 'closed' || this.sendProblem === 'closed') return localize.t('closedReason');
    if (c.questions.length >= MAX_QUESTIONS_PER_CONSULTATION || this.sendProblem === 'limit') {
      return localize.t('limitReached', localize.format.number(MAX_QUESTIONS_PER_CONSULTATION));
    }
    return undefined;
  }

  protected override render() {
    const loading = this.phase === 'loading' && !this.consultation;
    return html`<div
      part="base"
      class="base"
      lang=${this.localize.language}
      dir=${this.localize.dir}
      aria-busy=${loading ? 'true' : 'false'}
    >
      ${this.#renderBody(loading)}
      <div class="visually-hidden" role="status">${this.announcement}</div>
    </div>`;
  }

  #renderBody(loading: boolean): TemplateResult {
    const { localize } = this;
    if (this.consultation) return this.#renderConsultation(this.consultation);
    if (loading) return html`<p class="loading">${localize.t('loading')}</p>`;
    if (this.phase === 'error') {
      const notFound = this.loadError instanceof ApiError && this.loadError.status === 404;
      return html`<div part="notice" class="notice error" role="alert" tabindex="-1">
        <p>${notFound ? localize.t('notFound') : localize.t('loadFailed')}</p>
        <button type="button" @click=${this.#retry}>${localize.t('retry')}</button>
      </div>`;
    }
    return html`<p part="notice" class="notice">${localize.t('none')}</p>`;
  }

  #renderConsultation(c: Consultation): TemplateResult {
    const { localize } = this;
    return html`<div class="header">
        ${statusBadge(c.status, localize.language)}
        ${
          Number.isNaN(Date.parse(c.createdAt))
            ? nothing
            : html`<span class="date">${localize.t('askedOn', localize.format.date(c.createdAt))}</span>`
        }
      </div>
      <ol class="thread" aria-label=${localize.t('thread')}>
        ${c.questions.map((item, index) => this.#renderItem(c, item, index))}
      </ol>
      ${this.#renderFollowup(c)}`;
  }

  #renderItem(c: Consultation, item: QuestionItem, index: number): TemplateResult {
    const { localize } = this;
    const waiting =
      c.status === 'canceled' || c.status === 'closed'
        ? localize.t('notAnswered')
        : c.status === 'claimed'
          ? localize.t('working')
          : localize.t('waiting');
    return html`<li class="item">
      <div part="question" class="question" id="question-${index}" tabindex="-1">
        <p class="label">${index === 0 ? localize.t('yourQuestion') : localize.t('followupQuestion')}</p>
        <p class="question-text">${item.question}</p>
      </div>
      ${
        item.answer === undefined
          ? html`<p class="waiting">${waiting}</p>`
          : html`<div class="reply">
              <p class="label">${localize.t('answer')}</p>
              <div part="answer" class="markdown">${markdown(item.answer)}</div>
              ${this.#renderAttachments(item.attachments ?? [])}
              ${item.professional ? this.#renderProfessional(item.professional) : nothing}
            </div>`
      }
    </li>`;
  }

  #renderProfessional(p: Professional): TemplateResult {
    const { localize } = this;
    const language = localize.language;
    const regions = new Intl.DisplayNames([language], { type: 'region' });
    const list = new Intl.ListFormat(language, { style: 'long', type: 'conjunction' });
    const country = (code: string) => {
      try {
        return regions.of(code.toUpperCase()) ?? code;
      } catch {
        return code;
      }
    };
    const profile = httpsUrl(p.profileUrl);
    return html`<div part="professional" class="professional">
      <p class="label">${localize.t('answeredBy')}</p>
      <p class="name">${p.name}</p>
      ${p.title ? html`<p class="title">${p.title}</p>` : nothing}
      ${p.specialties.length ? html`<p class="specialties">${list.format(p.specialties)}</p>` : nothing}
      ${
        p.licenses.length
          ? html`<ul class="licences">
              ${p.licenses.map(
                (l) =>
                  html`<li>
                    ${localize.t('licence', l.licenseNumber, list.format(l.countries.map(country)))}
                  </li>`,
              )}
            </ul>`
          : nothing
      }
      ${
        profile
          ? html`<a class="profile" href=${profile.href} target="_blank" rel="noopener noreferrer"
              >${localize.t('profile', p.name)}</a
            >`
          : nothing
      }
    </div>`;
  }

  #renderAttachments(urls: string[]): TemplateResult | typeof nothing {
    const safe = urls.map(httpsUrl).filter((url): url is URL => url !== undefined);
    const leftOut = urls.length - safe.length;
    if (urls.length === 0) return nothing;
    return html`<div class="attachments">
      <p class="label">${this.localize.t('attachments')}</p>
      ${
        safe.length
          ? html`<ul>
              ${safe.map(
                (url) =>
                  html`<li>
                    <a href=${url.href} target="_blank" rel="noopener noreferrer">${fileName(url)}</a>
                  </li>`,
              )}
            </ul>`
          : nothing
      }
      ${
        leftOut
          ? html`<p class="note">
              ${this.localize.t('attachmentsLeftOut', leftOut, this.localize.format.number(leftOut))}
            </p>`
          : nothing
      }
    </div>`;
  }

  #renderFollowup(c: Consultation): TemplateResult {
    const { localize } = this;
    const used = html`<p id="followup-count" class="count">
      ${localize.t(
        'used',
        localize.format.number(c.questions.length),
        localize.format.number(MAX_QUESTIONS_PER_CONSULTATION),
      )}
    </p>`;
    const reason = this.#closedReason(c);
    if (reason) {
      return html`<div part="followup" class="followup closed">
        <p part="notice" class="notice" id="followup-notice" tabindex="-1">${reason}</p>
        ${used}
        ${
          this.draft.trim()
            ? html`<label for="unsent">${localize.t('unsent')}</label>
                <textarea id="unsent" rows="3" readonly .value=${live(this.draft)}></textarea>`
            : nothing
        }
      </div>`;
    }
    const problem =
      this.sendProblem === 'empty'
        ? localize.t('emptyQuestion')
        : this.sendProblem === 'failed'
          ? localize.t('sendFailed')
          : undefined;
    return html`<form part="followup" class="followup" novalidate @submit=${this.#onSubmit}>
      <label for="followup-input">${localize.t('followupLabel')}</label>
      <textarea
        id="followup-input"
        part="followup-input"
        rows="3"
        maxlength=${MAX_QUESTION_LENGTH}
        aria-describedby=${problem ? 'followup-count followup-error' : 'followup-count'}
        aria-invalid=${this.sendProblem === 'empty' ? 'true' : 'false'}
        ?readonly=${this.sending}
        .value=${live(this.draft)}
        @input=${this.#onInput}
        @keydown=${this.#onKeydown}
      ></textarea>
      ${used}
      ${
        problem
          ? html`<p id="followup-error" part="notice" class="notice error" role="alert">${problem}</p>`
          : nothing
      }
      <button part="submit-button" class="primary" type="submit" ?disabled=${this.sending}>
        ${this.sending ? localize.t('sending') : localize.t('send')}
      </button>
    </form>`;
  }
}
