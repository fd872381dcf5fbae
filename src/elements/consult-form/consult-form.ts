import { Task, TaskStatus } from '@lit/task';
import { html, nothing, type PropertyValues, type TemplateResult } from 'lit';
import { property, state } from 'lit/decorators.js';
import { ifDefined } from 'lit/directives/if-defined.js';
import { live } from 'lit/directives/live.js';
import { repeat } from 'lit/directives/repeat.js';
import { ApiError } from '../../client/errors.js';
import { newIdempotencyKey } from '../../client/index.js';
import { MAX_QUESTION_LENGTH, MAX_QUESTIONS_PER_CONSULTATION } from '../../client/types.js';
import { SessionElement } from '../shared/consult-element.js';
import { clearDraft, loadDraft, saveDraft } from '../shared/drafts.js';
import { ConsultSubmittedEvent } from '../shared/events.js';
import { defineStrings, LocalizeController } from '../shared/localize.js';
import { styles } from './consult-form.styles.js';

/** Arabic has six plural forms; CLDR's rules by the last two digits. */
function arabicCount(
  n: number,
  forms: { zero: string; one: string; two: string; few: string; many: string; other: string },
) {
  if (n === 0) return forms.zero;
  if (n === 1) return forms.one;
  if (n === 2) return forms.two;
  const lastTwo = n % 100;
  if (lastTwo >= 3 && lastTwo <= 10) return forms.few;
  if (lastTwo >= 11) return forms.many;
  return forms.other;
}

const strings = defineStrings({
  en: {
    loading: 'Loading the question form…',
    loadFailed: 'We could not load the question form.',
    retry: 'Try again',
    formLabel: 'Ask a doctor',
    emergency:
      'If this is an emergency, call your local emergency number now. Questions here are answered in writing, not straight away.',
    firstLabel: 'Your question',
    extraLabel: (n: number) => `Follow-up question ${n}`,
    hint: 'Say what worries you, since when, and which medicines you take.',
    counter: (count: string, max: string, left: number, leftText: string) =>
      `${count} of ${max} questions · ${left === 0 ? 'none left to add' : `${leftText} more possible`}`,
    addQuestion: 'Add another question',
    remove: 'Remove',
    removeLabel: (n: number) => `Remove follow-up question ${n}`,
    charactersLeft: (n: number, text: string) => (n === 1 ? '1 character left' : `${text} characters left`),
    charactersOver: (n: number, text: string) =>
      n === 1 ? '1 character too many' : `${text} characters too many`,
    tooLong: (max: string) => `This question is too long: shorten it to ${max} characters or fewer.`,
    emptyFirst: 'Write your question before sending.',
    emptyExtra: 'Write this question, or remove it.',
    invalid: (n: number) =>
      n === 1 ? 'One question needs your attention.' : `${n} questions need your attention.`,
    submit: 'Send to a doctor',
    sending: 'Sending…',
    sendingStatus: 'Sending your question…',
    sendFailed: 'Your question could not be sent. Your text is kept; please try again.',
    sendFailedNetwork:
      'The connection was lost before we heard back. Your text is kept, and trying again will not send it twice.',
    sent: 'Your question was sent. A doctor will answer here.',
    askAnother: 'Ask another question',
    noSubscriptionTitle: 'No active subscription',
    noSubscription: 'Your plan does not include questions to a doctor at the moment.',
    inactiveTitle: 'Account not active',
    inactive:
      'Your account is not active, so you cannot ask a doctor right now. Please contact your health partner.',
    draftRestored: 'Your unsent draft was restored.',
    removed: 'Question removed.',
  },
  de: {
    loading: 'Das Fragenformular wird geladen…',
    loadFailed: 'Das Fragenformular konnte nicht geladen werden.',
    retry: 'Erneut versuchen',
    formLabel: 'Ärztin oder Arzt fragen',
    emergency:
      'Im Notfall rufen Sie jetzt den örtlichen Notruf an. Fragen hier werden schriftlich beantwortet, nicht sofort.',
    firstLabel: 'Ihre Frage',
    extraLabel: (n) => `Zusatzfrage ${n}`,
    hint: 'Beschreiben Sie, was Sie beunruhigt, seit wann, und welche Medikamente Sie nehmen.',
    counter: (count, max, left, leftText) =>
      `${count} von ${max} Fragen · ${left === 0 ? 'keine weitere möglich' : `noch ${leftText} weitere möglich`}`,
    addQuestion: 'Weitere Frage hinzufügen',
    remove: 'Entfernen',
    removeLabel: (n) => `Zusatzfrage ${n} entfernen`,
    charactersLeft: (n, text) => (n === 1 ? 'Noch 1 Zeichen' : `Noch ${text} Zeichen`),
    charactersOver: (_n, text) => `${text} Zeichen zu viel`,
    tooLong: (max) => `Diese Frage ist zu lang: Bitte kürzen Sie sie auf höchstens ${max} Zeichen.`,
    emptyFirst: 'Bitte schreiben Sie Ihre Frage, bevor Sie sie senden.',
    emptyExtra: 'Schreiben Sie diese Frage oder entfernen Sie sie.',
    invalid: (n) =>
      n === 1 ? 'Eine Frage braucht Ihre Aufmerksamkeit.' : `${n} Fragen brauchen Ihre Aufmerksamkeit.`,
    submit: 'An eine Ärztin oder einen Arzt senden',
    sending: 'Wird gesendet…',
    sendingStatus: 'Ihre Frage wird gesendet…',
    sendFailed:
      'Ihre Frage konnte nicht gesendet werden. Ihr Text bleibt erhalten; bitte versuchen Sie es erneut.',
    sendFailedNetwork:
      'Die Verbindung brach ab, bevor eine Antwort kam. Ihr Text bleibt erhalten, und ein erneuter Versuch sendet ihn nicht doppelt.',
    sent: 'Ihre Frage wurde gesendet. Die Antwort erscheint hier.',
    askAnother: 'Eine neue Frage stellen',
    noSubscriptionTitle: 'Kein aktives Abonnement',
    noSubscription: 'Ihr Tarif umfasst derzeit keine Fragen an Ärztinnen und Ärzte.',
    inactiveTitle: 'Konto nicht aktiv',
    inactive:
      'Ihr Konto ist nicht aktiv, daher können Sie gerade keine ärztliche Frage stellen. Bitte wenden Sie sich an Ihren Gesundheitspartner.',
    draftRestored: 'Ihr nicht gesendeter Entwurf wurde wiederhergestellt.',
    removed: 'Frage entfernt.',
  },
  fr: {
    loading: 'Chargement du formulaire…',
    loadFailed: 'Impossible de charger le formulaire de question.',
    retry: 'Réessayer',
    formLabel: 'Poser une question à un médecin',
    emergency:
      "En cas d'urgence, appelez immédiatement le numéro d'urgence local. Les réponses sont données par écrit, pas dans l'instant.",
    firstLabel: 'Votre question',
    extraLabel: (n) => `Question complémentaire ${n}`,
    hint: 'Dites ce qui vous inquiète, depuis quand, et quels médicaments vous prenez.',
    counter: (count, max, left, leftText) =>
      `${count} question${count === '1' ? '' : 's'} sur ${max} · ${
        left === 0
          ? 'aucune autre possible'
          : left === 1
            ? 'encore 1 possible'
            : `encore ${leftText} possibles`
      }`,
    addQuestion: 'Ajouter une question',
    remove: 'Retirer',
    removeLabel: (n) => `Retirer la question complémentaire ${n}`,
    charactersLeft: (n, text) => (n <= 1 ? `${text} caractère restant` : `${text} caractères restants`),
    charactersOver: (n, text) => (n === 1 ? '1 caractère de trop' : `${text} caractères de trop`),
    tooLong: (max) => `Cette question est trop longue : raccourcissez-la à ${max} caractères maximum.`,
    emptyFirst: "Écrivez votre question avant de l'envoyer.",
    emptyExtra: 'Écrivez cette question ou retirez-la.',
    invalid: (n) =>
      n === 1 ? 'Une question demande votre attention.' : `${n} questions demandent votre attention.`,
    submit: 'Envoyer à un médecin',
    sending: 'Envoi…',
    sendingStatus: 'Envoi de votre question…',
    sendFailed: "Votre question n'a pas pu être envoyée. Votre texte est conservé ; veuillez réessayer.",
    sendFailedNetwork:
      "La connexion a été perdue avant la réponse. Votre texte est conservé, et un nouvel essai ne l'enverra pas deux fois.",
    sent: 'Votre question a été envoyée. Un médecin vous répondra ici.',
    askAnother: 'Poser une autre question',
    noSubscriptionTitle: "Pas d'abonnement actif",
    noSubscription: "Votre offre n'inclut pas de questions à un médecin pour le moment.",
    inactiveTitle: 'Compte inactif',
    inactive:
      "Votre compte n'est pas actif : vous ne pouvez pas poser de question à un médecin pour l'instant. Contactez votre partenaire santé.",
    draftRestored: 'Votre brouillon non envoyé a été restauré.',
    removed: 'Question retirée.',
  },
  es: {
    loading: 'Cargando el formulario…',
    loadFailed: 'No pudimos cargar el formulario de preguntas.',
    retry: 'Reintentar',
    formLabel: 'Preguntar a un médico',
    emergency:
      'Si es una emergencia, llama ahora al número de emergencias local. Aquí las preguntas se responden por escrito, no al instante.',
    firstLabel: 'Tu pregunta',
    extraLabel: (n) => `Pregunta adicional ${n}`,
    hint: 'Cuenta qué te preocupa, desde cuándo y qué medicamentos tomas.',
    counter: (count, max, left, leftText) =>
      `${count} de ${max} preguntas · ${left === 0 ? 'no puedes añadir más' : `puedes añadir ${leftText} más`}`,
    addQuestion: 'Añadir otra pregunta',
    remove: 'Quitar',
    removeLabel: (n) => `Quitar la pregunta adicional ${n}`,
    charactersLeft: (n, text) => (n === 1 ? 'Queda 1 carácter' : `Quedan ${text} caracteres`),
    charactersOver: (n, text) => (n === 1 ? '1 carácter de más' : `${text} caracteres de más`),
    tooLong: (max) => `Esta pregunta es demasiado larga: acórtala a ${max} caracteres como máximo.`,
    emptyFirst: 'Escribe tu pregunta antes de enviarla.',
    emptyExtra: 'Escribe esta pregunta o quítala.',
    invalid: (n) =>
      n === 1 ? 'Una pregunta necesita tu atención.' : `${n} preguntas necesitan tu atención.`,
    submit: 'Enviar a un médico',
    sending: 'Enviando…',
    sendingStatus: 'Enviando tu pregunta…',
    sendFailed: 'No se pudo enviar tu pregunta. Tu texto se conserva; inténtalo de nuevo.',
    sendFailedNetwork:
      'Se perdió la conexión antes de recibir respuesta. Tu texto se conserva y volver a intentarlo no lo enviará dos veces.',
    sent: 'Tu pregunta se ha enviado. Un médico te responderá aquí.',
    askAnother: 'Hacer otra pregunta',
    noSubscriptionTitle: 'Sin suscripción activa',
    noSubscription: 'Tu plan no incluye preguntas a un médico en este momento.',
    inactiveTitle: 'Cuenta no activa',
    inactive:
      'Tu cuenta no está activa, así que ahora no puedes preguntar a un médico. Ponte en contacto con tu proveedor de salud.',
    draftRestored: 'Se ha recuperado tu borrador sin enviar.',
    removed: 'Pregunta quitada.',
  },
  nl: {
    loading: 'Het vragenformulier wordt geladen…',
    loadFailed: 'We konden het vragenformulier niet laden.',
    retry: 'Opnieuw proberen',
    formLabel: 'Een arts een vraag stellen',
    emergency:
      'Is dit een noodgeval? Bel dan nu het lokale alarmnummer. Vragen hier worden schriftelijk beantwoord, niet direct.',
    firstLabel: 'Uw vraag',
    extraLabel: (n) => `Aanvullende vraag ${n}`,
    hint: 'Vertel wat u zorgen baart, sinds wanneer, en welke medicijnen u gebruikt.',
    counter: (count, max, left, leftText) =>
      `${count} van ${max} vragen · ${left === 0 ? 'geen meer mogelijk' : `nog ${leftText} mogelijk`}`,
    addQuestion: 'Nog een vraag toevoegen',
    remove: 'Verwijderen',
    removeLabel: (n) => `Aanvullende vraag ${n} verwijderen`,
    charactersLeft: (n, text) => (n === 1 ? 'Nog 1 teken' : `Nog ${text} tekens`),
    charactersOver: (n, text) => (n === 1 ? '1 teken te veel' : `${text} tekens te veel`),
    tooLong: (max) => `Deze vraag is te lang: maak haar korter, tot hoogstens ${max} tekens.`,
    emptyFirst: 'Schrijf uw vraag voordat u verstuurt.',
    emptyExtra: 'Schrijf deze vraag, of verwijder haar.',
    invalid: (n) => (n === 1 ? 'Eén vraag vraagt uw aandacht.' : `${n} vragen vragen uw aandacht.`),
    submit: 'Naar een arts sturen',
    sending: 'Bezig met versturen…',
    sendingStatus: 'Uw vraag wordt verstuurd…',
    sendFailed: 'Uw vraag kon niet worden verstuurd. Uw tekst blijft bewaard; probeer het opnieuw.',
    sendFailedNetwork:
      'De verbinding viel weg voordat er antwoord kwam. Uw tekst blijft bewaard, en opnieuw proberen verstuurt hem niet twee keer.',
    sent: 'Uw vraag is verstuurd. Een arts antwoordt hier.',
    askAnother: 'Een nieuwe vraag stellen',
    noSubscriptionTitle: 'Geen actief abonnement',
    noSubscription: 'Uw pakket bevat op dit moment geen vragen aan een arts.',
    inactiveTitle: 'Account niet actief',
    inactive:
      'Uw account is niet actief, dus u kunt nu geen vraag aan een arts stellen. Neem contact op met uw zorgpartner.',
    draftRestored: 'Uw niet-verstuurde concept is hersteld.',
    removed: 'Vraag verwijderd.',
  },
  ar: {
    loading: 'جارٍ تحميل نموذج السؤال…',
    loadFailed: 'تعذّر تحميل نموذج السؤال.',
    retry: 'إعادة المحاولة',
    formLabel: 'اسأل طبيبًا',
    emergency:
      'إذا كانت هذه حالة طارئة، فاتصل برقم الطوارئ المحلي الآن. يُجاب عن الأسئلة هنا كتابةً، وليس فورًا.',
    firstLabel: 'سؤالك',
    extraLabel: (n) => `سؤال إضافي ${n}`,
    hint: 'اذكر ما يقلقك، ومنذ متى، وما الأدوية التي تتناولها.',
    counter: (count, max, left) =>
      `${count} من ${max} أسئلة · ${
        left === 0 ? 'لا يمكن إضافة المزيد' : left === 1 ? 'يمكنك إضافة سؤال آخر' : 'يمكنك إضافة سؤالين آخرين'
      }`,
    addQuestion: 'إضافة سؤال آخر',
    remove: 'حذف',
    removeLabel: (n) => `حذف السؤال الإضافي ${n}`,
    charactersLeft: (n, text) =>
      arabicCount(n, {
        zero: 'لم يتبقَّ أي حرف',
        one: 'يتبقى حرف واحد',
        two: 'يتبقى حرفان',
        few: `يتبقى ${text} أحرف`,
        many: `يتبقى ${text} حرفًا`,
        other: `يتبقى ${text} حرف`,
      }),
    charactersOver: (n, text) =>
      arabicCount(n, {
        zero: '',
        one: 'حرف واحد زائد',
        two: 'حرفان زائدان',
        few: `${text} أحرف زائدة`,
        many: `${text} حرفًا زائدًا`,
        other: `${text} حرف زائد`,
      }),
    tooLong: (max) => `هذا السؤال طويل جدًا: اختصره إلى ${max} حرف أو أقل.`,
    emptyFirst: 'اكتب سؤالك قبل الإرسال.',
    emptyExtra: 'اكتب هذا السؤال أو احذفه.',
    invalid: (n) =>
      n === 1
        ? 'سؤال واحد يحتاج إلى انتباهك.'
        : n === 2
          ? 'سؤالان يحتاجان إلى انتباهك.'
          : `${n} أسئلة تحتاج إلى انتباهك.`,
    submit: 'أرسل إلى طبيب',
    sending: 'جارٍ الإرسال…',
    sendingStatus: 'جارٍ إرسال سؤالك…',
    sendFailed: 'تعذّر إرسال سؤالك. نصّك محفوظ؛ يرجى المحاولة مرة أخرى.',
    sendFailedNetwork: 'انقطع الاتصال قبل وصول الرد. نصّك محفوظ، وإعادة المحاولة لن ترسله مرتين.',
    sent: 'تم إرسال سؤالك. سيجيبك الطبيب هنا.',
    askAnother: 'اطرح سؤالًا آخر',
    noSubscriptionTitle: 'لا يوجد اشتراك فعّال',
    noSubscription: 'لا تشمل خطتك حاليًا طرح أسئلة على طبيب.',
    inactiveTitle: 'الحساب غير مفعّل',
    inactive: 'حسابك غير مفعّل، لذا لا يمكنك سؤال طبيب الآن. يرجى التواصل مع شريكك الصحي.',
    draftRestored: 'تمت استعادة مسودتك غير المرسلة.',
    removed: 'تم حذف السؤال.',
  },
});

/** The sessionStorage name of the draft (per member, see drafts.ts). */
const DRAFT = 'consult-form';

/** The counter appears once a question is this long, before the limit bites. */
const COUNTER_FROM = Math.floor(MAX_QUESTION_LENGTH * 0.8);

/** What is kept in sessionStorage: the text, and the key it was (or will be) sent with. */
interface FormDraft {
  questions: string[];
  idempotencyKey?: string;
}

interface Question {
  /** Stable across edits and removals: the key of its row and of its element ids. */
  id: number;
  text: string;
}

type Eligibility = 'eligible' | 'no-subscription' | 'inactive';

/** The request a key belongs to: the trimmed questions, as the proxy compares them. */
const fingerprint = (texts: readonly string[]) => JSON.stringify(texts.map((text) => text.trim()));

let nextQuestionId = 0;
const newQuestion = (text = ''): Question => ({ id: nextQuestionId++, text });

/**
 * @summary The member's question to a doctor: one to three questions, limits shown before they
 * bite, an emergency notice, and a submit that never creates two consultations.
 *
 * The draft (text and idempotency key) is kept in sessionStorage per member, so a reload loses
 * nothing and a retry after a timeout sends the same key. After sending, the new consultation's
 * `<consult-thread>` is shown.
 *
 * @slot emergency - Replaces the default emergency notice shown above the questions.
 * @slot no-subscription - Shown when the member has no active subscription: explain the partner's offer.
 * @slot inactive - Shown when the member's account is not active.
 *
 * @event consult-submitted - A consultation was created: `{ consultationId, questions }` (a count, never text).
 * @event consult-error - Loading or sending failed: `{ code, status, operation }`.
 *
 * @csspart base - The wrapper of every state.
 * @csspart form - The form.
 * @csspart question - Each question: label, text box, counter and messages.
 * @csspart character-count - The characters-left counter of a question near its limit.
 * @csspart counter - How many questions are used and left.
 * @csspart add-button - The "add another question" button.
 * @csspart submit-button - The send button.
 * @csspart notice - Status notices: loading, errors, no subscription, inactive account, sent.
 * @csspart emergency - The emergency notice.
 *
 * @cssprop --consult-form-gap - Space between the form's blocks. Default `--consult-spacing` (1rem).
 */
export class ConsultForm extends SessionElement {
  static override styles = [...SessionElement.styles, styles];

  /** True while the questions are being sent; the submit button is disabled meanwhile. */
  @property({ type: Boolean, reflect: true }) busy = false;

  @state() private questions: Question[] = [newQuestion()];
  /** Empty questions are flagged only once the member tried to send. */
  @state() private triedToSend = false;
  @state() private sendError?: 'failed' | 'network';
  /** A refusal from the service on send, which outranks what was read on load. */
  @state() private refused?: Exclude<Eligibility, 'eligible'>;
  @state() private submitted?: { consultationId: string };
  /** Text for the polite live region. */
  @state() private announcement = '';

  private readonly localize = new LocalizeController(this, strings);

  /** The member whose draft is in the form. */
  #owner?: string;
  /** The key for the request `for`: the same content always goes with the same key. */
  #key?: { value: string; for: string };
  #saveTimer?: ReturnType<typeof setTimeout>;
  #sending?: AbortController;
  #pendingText?: string;
  #focusAfterUpdate?: () => HTMLElement | null | undefined;
  #focusWhenLoaded = false;

  readonly #eligibility = new Task(this, {
    args: () => [this.activeSession, this.user?.id] as const,
    task: async ([session], { signal }): Promise<Eligibility> => {
      if (!session)
        throw new Error('consult-form has no session: place it in <consult-session> or set endpoint.');
      const user = await session.ready();
      signal.throwIfAborted();
      if (user.userStatus && user.userStatus !== 'activeUser') return 'inactive';
      const subscriptions = await session.client.getUserSubscriptions(user.id, { signal });
      if (!subscriptions.some((s) => s.active === 1)) return 'no-subscription';
      this.#restoreDraft(user.id);
      return 'eligible';
    },
    // Called before the task counts as complete, so readiness is told, not read.
    onComplete: (eligibility) => {
      if (eligibility === 'eligible' && !this.refused) this.#applyPendingText(true);
    },
    onError: (error) =>
      this.reportError(error, error instanceof ApiError ? error.operation : 'getUserSubscriptions'),
  });

  /**
   * Puts `text` in the first empty question (a new one if all are filled and there is room)
   * and focuses it. Before the form is ready, or while sending, the text waits for it.
   */
  startWith(text: string): void {
    this.#pendingText = text;
    this.#applyPendingText();
  }

  override connectedCallback(): void {
    super.connectedCallback();
    window.addEventListener('pagehide', this.#flush);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    window.removeEventListener('pagehide', this.#flush);
    this.#flush();
    // The draft keeps the key: sending again later answers the same consultation, never a second one.
    this.#sending?.abort();
  }

  protected override willUpdate(changed: PropertyValues): void {
    super.willUpdate(changed);
    // Signed out, or another member: nothing of the previous member's stays on screen (S16).
    if (this.#owner !== undefined && this.user?.id !== this.#owner) this.#forget();
  }

  protected override updated(changed: PropertyValues): void {
    super.updated(changed);
    if (this.#focusWhenLoaded && this.#eligibility.status !== TaskStatus.PENDING) {
      // After "try again" the button is gone: focus goes to what replaced it.
      this.#focusWhenLoaded = false;
      this.#focusAfterUpdate ??= () =>
        this.renderRoot.querySelector<HTMLElement>(
          'textarea, [part~="notice"][tabindex], [part~="notice"] button',
        );
    }
    const target = this.#focusAfterUpdate?.();
    this.#focusAfterUpdate = undefined;
    target?.focus();
  }

  get #formReady(): boolean {
    return (
      this.#eligibility.status === TaskStatus.COMPLETE &&
      this.#eligibility.value === 'eligible' &&
      !this.refused &&
      this.#owner !== undefined
    );
  }

  #applyPendingText(ready = this.#formReady): void {
    const text = this.#pendingText;
    // While sending, the text waits: the form is about to be replaced by the sent state.
    if (text === undefined || !ready || this.busy || this.#owner === undefined) return;
    this.#pendingText = undefined;
    if (this.submitted) this.#newForm();
    const questions = [...this.questions];
    let index = questions.findIndex((q) => q.text.trim() === '');
    if (index === -1 && questions.length < MAX_QUESTIONS_PER_CONSULTATION) {
      questions.push(newQuestion());
      index = questions.length - 1;
    }
    // Every question taken: the text joins the last one rather than being lost.
    const target = index === -1 ? questions.at(-1) : questions[index];
    if (!target) return;
    const filled = { ...target, text: index === -1 ? `${target.text}\n\n${text}` : text };
    this.questions = questions.map((q) => (q.id === target.id ? filled : q));
    this.#saveNow();
    this.#focusQuestion(target.id);
  }

  #restoreDraft(userId: string): void {
    if (this.#owner === userId) return;
    this.#owner = userId;
    const draft = loadDraft<FormDraft>(userId, DRAFT);
    const texts = Array.isArray(draft?.questions)
      ? draft.questions
          .filter((q): q is string => typeof q === 'string')
          .slice(0, MAX_QUESTIONS_PER_CONSULTATION)
      : [];
    if (texts.length === 0) return;
    this.questions = texts.map((text) => newQuestion(text));
    if (typeof draft?.idempotencyKey === 'string') {
      this.#key = { value: draft.idempotencyKey, for: fingerprint(texts) };
    }
    if (texts.some((text) => text.trim() !== '')) this.announcement = this.localize.t('draftRestored');
  }

  /** Writes the draft now: the text, and the key when it still belongs to this text. */
  #saveNow(): void {
    clearTimeout(this.#saveTimer);
    this.#saveTimer = undefined;
    const owner = this.#owner;
    if (!owner) return;
    const texts = this.questions.map((q) => q.text);
    if (texts.every((text) => text.trim() === '') && texts.length === 1) {
      clearDraft(owner, DRAFT);
      return;
    }
    const draft: FormDraft = { questions: texts };
    if (this.#key && this.#key.for === fingerprint(texts)) draft.idempotencyKey = this.#key.value;
    saveDraft(owner, DRAFT, draft);
  }

  #scheduleSave(): void {
    clearTimeout(this.#saveTimer);
    this.#saveTimer = setTimeout(() => this.#saveNow(), 300);
  }

  #flush = (): void => {
    if (this.#saveTimer !== undefined) this.#saveNow();
  };

  /** Forgets the previous member's form: in memory only, the session clears their stored drafts. */
  #forget(): void {
    clearTimeout(this.#saveTimer);
    this.#saveTimer = undefined;
    this.#sending?.abort();
    this.#owner = undefined;
    this.#key = undefined;
    this.questions = [newQuestion()];
    this.triedToSend = false;
    this.sendError = undefined;
    this.refused = undefined;
    this.submitted = undefined;
    this.announcement = '';
  }

  #newForm(): void {
    this.submitted = undefined;
    this.questions = [newQuestion()];
    this.triedToSend = false;
    this.sendError = undefined;
    this.announcement = '';
  }

  #focusQuestion(id: number): void {
    this.#focusAfterUpdate = () => this.renderRoot.querySelector<HTMLElement>(`#question-${id}`);
  }

  #errorOf(question: Question, index: number): string | undefined {
    if (question.text.length > MAX_QUESTION_LENGTH) {
      return this.localize.t('tooLong', this.localize.format.number(MAX_QUESTION_LENGTH));
    }
    if (this.triedToSend && question.text.trim() === '') {
      return this.localize.t(index === 0 ? 'emptyFirst' : 'emptyExtra');
    }
    return undefined;
  }

  #onInput(id: number, event: Event): void {
    const text = (event.target as HTMLTextAreaElement).value;
    this.questions = this.questions.map((q) => (q.id === id ? { ...q, text } : q));
    this.#scheduleSave();
  }

  #onKeydown(event: KeyboardEvent): void {
    // Ctrl+Enter (⌘+Enter) sends, as in most message boxes; Enter alone is a new line.
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      void this.#submit();
    }
  }

  #add(): void {
    if (this.busy || this.questions.length >= MAX_QUESTIONS_PER_CONSULTATION) return;
    const question = newQuestion();
    this.questions = [...this.questions, question];
    this.#saveNow();
    this.#focusQuestion(question.id);
  }

  #remove(id: number): void {
    if (this.busy) return;
    const index = this.questions.findIndex((q) => q.id === id);
    if (index <= 0) return;
    const previous = this.questions[index - 1];
    this.questions = this.questions.filter((q) => q.id !== id);
    this.announcement = this.localize.t('removed');
    this.#saveNow();
    if (previous) this.#focusQuestion(previous.id);
  }

  #onSubmit(event: Event): void {
    event.preventDefault();
    void this.#submit();
  }

  async #submit(): Promise<void> {
    // One request in flight: a double click or Ctrl+Enter while sending does nothing more.
    if (this.busy) return;
    const session = this.activeSession;
    const owner = this.#owner;
    if (!session || !owner || !this.#formReady) return;

    this.triedToSend = true;
    const invalid = this.questions.filter((q, i) => this.#errorOf(q, i) !== undefined);
    const [firstInvalid] = invalid;
    if (firstInvalid) {
      this.announcement = this.localize.t('invalid', invalid.length);
      this.#focusQuestion(firstInvalid.id);
      return;
    }

    const texts = this.questions.map((q) => q.text.trim());
    // The same text keeps its key (a retry after a timeout answers the first outcome); changed text is a new request.
    const request = fingerprint(texts);
    if (this.#key?.for !== request) this.#key = { value: newIdempotencyKey(), for: request };
    const idempotencyKey = this.#key.value;
    // Stored before sending, so a reload mid-request retries with the same key.
    this.#saveNow();

    const controller = new AbortController();
    this.#sending = controller;
    this.busy = true;
    this.sendError = undefined;
    this.announcement = this.localize.t('sendingStatus');
    try {
      const consultation = await session.client.createConsultation(
        { userId: owner, questions: texts },
        { idempotencyKey, signal: controller.signal },
      );
      if (controller.signal.aborted || this.#owner !== owner) return;
      clearDraft(owner, DRAFT);
      this.#key = undefined;
      this.#newForm();
      this.submitted = { consultationId: consultation.consultationId };
      this.emit(
        new ConsultSubmittedEvent({ consultationId: consultation.consultationId, questions: texts.length }),
      );
      this.#focusAfterUpdate = () => this.renderRoot.querySelector<HTMLElement>('#sent');
    } catch (error) {
      if (controller.signal.aborted) return;
      this.reportError(error, 'createConsultation');
      const code = error instanceof ApiError ? error.code : undefined;
      if (code === 'subscription_required' || code === 'user_inactive') {
        this.refused = code === 'user_inactive' ? 'inactive' : 'no-subscription';
        // The form, and the button that had focus, give way to the notice: focus follows.
        this.#focusAfterUpdate = () => this.renderRoot.querySelector<HTMLElement>('[part~="notice"]');
      } else this.sendError = error instanceof ApiError && error.kind !== 'http' ? 'network' : 'failed';
      this.announcement = '';
    } finally {
      if (this.#sending === controller) {
        this.#sending = undefined;
        this.busy = false;
        // Text handed over while sending fills the form again, or waits for "ask another" after a success.
        if (!this.submitted) this.#applyPendingText();
      }
    }
  }

  #retryLoad(): void {
    this.#focusWhenLoaded = true;
    void this.#eligibility.run();
  }

  #askAnother(): void {
    this.#newForm();
    const [first] = this.questions;
    if (first) this.#focusQuestion(first.id);
    this.#applyPendingText();
  }

  protected override render() {
    const { localize } = this;
    const task = this.#eligibility;
    const loading = task.status === TaskStatus.INITIAL || task.status === TaskStatus.PENDING;
    let content: TemplateResult;
    if (task.status === TaskStatus.ERROR) content = this.#renderLoadError();
    else if (loading) content = html`<p part="notice" class="notice">${localize.t('loading')}</p>`;
    else {
      const eligibility = this.refused ?? task.value;
      if (eligibility === 'no-subscription') content = this.#renderRefusal('no-subscription');
      else if (eligibility === 'inactive') content = this.#renderRefusal('inactive');
      else if (this.submitted) content = this.#renderSubmitted(this.submitted.consultationId);
      else content = this.#renderForm();
    }
    return html`<div
      part="base"
      lang=${localize.language}
      dir=${localize.dir}
      aria-busy=${loading ? 'true' : 'false'}
    >
      <div class="visually-hidden" role="status">${loading ? localize.t('loading') : this.announcement}</div>
      ${content}
    </div>`;
  }

  #renderLoadError() {
    return html`<div part="notice" class="notice error" role="alert">
      <p>${this.localize.t('loadFailed')}</p>
      <button type="button" @click=${this.#retryLoad}>${this.localize.t('retry')}</button>
    </div>`;
  }

  #renderRefusal(kind: 'no-subscription' | 'inactive') {
    const { localize } = this;
    const [title, text] =
      kind === 'inactive'
        ? [localize.t('inactiveTitle'), localize.t('inactive')]
        : [localize.t('noSubscriptionTitle'), localize.t('noSubscription')];
    return html`<div part="notice" class="notice warning" tabindex="-1">
      <p class="title">${title}</p>
      <slot name=${kind}><p>${text}</p></slot>
    </div>`;
  }

  #renderSubmitted(consultationId: string) {
    // The thread sits in this shadow root, where it cannot see a lang on <consult-session>.
    return html`<p part="notice" id="sent" class="notice success" tabindex="-1">${this.localize.t('sent')}</p>
      <consult-thread
        consultation-id=${consultationId}
        endpoint=${ifDefined(this.endpoint)}
        lang=${this.localize.language}
        .session=${this.session}
      ></consult-thread>
      <button type="button" class="ask-another" @click=${this.#askAnother}>
        ${this.localize.t('askAnother')}
      </button>`;
  }

  #renderForm() {
    const { localize } = this;
    const max = MAX_QUESTIONS_PER_CONSULTATION;
    const count = this.questions.length;
    const left = max - count;
    return html`<form part="form" novalidate aria-label=${localize.t('formLabel')} @submit=${this.#onSubmit}>
      <div part="emergency" class="notice warning emergency" role="note">
        <slot name="emergency">${localize.t('emergency')}</slot>
      </div>
      ${repeat(
        this.questions,
        (q) => q.id,
        (q, index) => this.#renderQuestion(q, index),
      )}
      <div class="row">
        <p part="counter" class="counter" aria-live="polite">
          ${localize.t(
            'counter',
            localize.format.number(count),
            localize.format.number(max),
            left,
            localize.format.number(left),
          )}
        </p>
        ${
          left > 0
            ? html`<button part="add-button" type="button" ?disabled=${this.busy} @click=${this.#add}>
                ${localize.t('addQuestion')}
              </button>`
            : nothing
        }
      </div>
      ${
        this.sendError
          ? html`<div part="notice" class="notice error" role="alert">
              <p>${localize.t(this.sendError === 'network' ? 'sendFailedNetwork' : 'sendFailed')}</p>
              <button type="button" @click=${() => void this.#submit()}>${localize.t('retry')}</button>
            </div>`
          : nothing
      }
      <button
        part="submit-button"
        class="primary submit"
        type="submit"
        aria-disabled=${this.busy ? 'true' : 'false'}
      >
        ${this.busy ? localize.t('sending') : localize.t('submit')}
      </button>
    </form>`;
  }

  #renderQuestion(question: Question, index: number) {
    const { localize } = this;
    const { id, text } = question;
    const error = this.#errorOf(question, index);
    const length = text.length;
    const showCount = length >= COUNTER_FROM;
    const over = length > MAX_QUESTION_LENGTH;
    const remaining = Math.abs(MAX_QUESTION_LENGTH - length);
    const describedBy = [
      index === 0 ? `hint-${id}` : '',
      showCount ? `count-${id}` : '',
      error ? `error-${id}` : '',
    ]
      .filter(Boolean)
      .join(' ');
    return html`<div part="question" class="question">
      <label for="question-${id}"
        >${index === 0 ? localize.t('firstLabel') : localize.t('extraLabel', index + 1)}</label
      >
      ${index === 0 ? html`<p id="hint-${id}" class="hint">${localize.t('hint')}</p>` : nothing}
      <textarea
        id="question-${id}"
        name="question"
        rows="4"
        .value=${live(text)}
        ?readonly=${this.busy}
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby=${ifDefined(describedBy || undefined)}
        @input=${(event: Event) => this.#onInput(id, event)}
        @keydown=${this.#onKeydown}
      ></textarea>
      ${
        showCount || index > 0
          ? html`<div class="meta">
              ${
                showCount
                  ? html`<span
                      part="character-count"
                      id="count-${id}"
                      class="character-count ${over ? 'over' : ''}"
                    >
                      ${
                        over
                          ? localize.t('charactersOver', remaining, localize.format.number(remaining))
                          : localize.t('charactersLeft', remaining, localize.format.number(remaining))
                      }
                    </span>`
                  : nothing
              }
              ${
                index > 0
                  ? html`<button
                      type="button"
                      class="remove"
                      aria-label=${localize.t('removeLabel', index + 1)}
                      ?disabled=${this.busy}
                      @click=${() => this.#remove(id)}
                    >
                      ${localize.t('remove')}
                    </button>`
                  : nothing
              }
            </div>`
          : nothing
      }
      ${error ? html`<p id="error-${id}" class="error">${error}</p>` : nothing}
    </div>`;
  }
}
