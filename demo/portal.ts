/**
 * The demo portal's own script: member switching, language and theme. It touches the elements only
 * through their public API (attributes, `signOut()`), as a partner's code would.
 */
import type { ConsultSession } from '../src/elements/consult-session/consult-session.js';

const session = document.querySelector<ConsultSession>('consult-session');
const memberSelect = document.querySelector<HTMLSelectElement>('#member');
const languageSelect = document.querySelector<HTMLSelectElement>('#language');
const themeSelect = document.querySelector<HTMLSelectElement>('#theme');

// Show who is signed in (the portal's own cookie, readable by the portal's page on purpose: it holds no secret).
const current = /(?:^|;\s*)portal_member_hint=([a-z]+)/.exec(document.cookie)?.[1];
if (memberSelect && current) memberSelect.value = current;

/** The portal's own headings, in the six languages the elements speak. */
const PORTAL_TEXT = {
  en: {
    title: 'Ask a doctor',
    intro: 'Licensed doctors answer your health questions in writing, usually within a day.',
    ask: 'New question',
    history: 'My consultations',
    prescription: 'Repeat prescription',
    navigator: 'Health navigator',
  },
  de: {
    title: 'Ärztliche Fragen',
    intro:
      'Zugelassene Ärztinnen und Ärzte beantworten Ihre Gesundheitsfragen schriftlich, meist innerhalb eines Tages.',
    ask: 'Neue Frage',
    history: 'Meine Beratungen',
    prescription: 'Folgerezept',
    navigator: 'Gesundheitslotse',
  },
  fr: {
    title: 'Demander à un médecin',
    intro: 'Des médecins diplômés répondent par écrit à vos questions de santé, en général sous un jour.',
    ask: 'Nouvelle question',
    history: 'Mes consultations',
    prescription: 'Renouvellement d’ordonnance',
    navigator: 'Guide santé',
  },
  es: {
    title: 'Pregunte a un médico',
    intro: 'Médicos colegiados responden por escrito a sus preguntas de salud, normalmente en un día.',
    ask: 'Nueva pregunta',
    history: 'Mis consultas',
    prescription: 'Receta de continuación',
    navigator: 'Orientador de salud',
  },
  nl: {
    title: 'Vraag het een arts',
    intro: 'Bevoegde artsen beantwoorden uw gezondheidsvragen schriftelijk, meestal binnen een dag.',
    ask: 'Nieuwe vraag',
    history: 'Mijn consulten',
    prescription: 'Herhaalrecept',
    navigator: 'Gezondheidsgids',
  },
  ar: {
    title: 'اسأل طبيبًا',
    intro: 'يجيب أطباء مرخّصون عن أسئلتك الصحية كتابةً، عادةً خلال يوم.',
    ask: 'سؤال جديد',
    history: 'استشاراتي',
    prescription: 'تجديد وصفة طبية',
    navigator: 'المرشد الصحي',
  },
} as const;

/** The portal's headings in `lang` (the chosen one, else the member's), each with its own direction. */
function localizePortal(): void {
  const wanted = languageSelect?.value || session?.manager?.member.current?.language || 'en';
  const code = (wanted.split('-')[0] ?? 'en') as keyof typeof PORTAL_TEXT;
  const lang = code in PORTAL_TEXT ? code : 'en';
  const words: Record<string, string> = PORTAL_TEXT[lang];
  for (const element of document.querySelectorAll<HTMLElement>('[data-portal-text]')) {
    const text = words[element.dataset.portalText ?? ''];
    if (!text) continue;
    element.textContent = text;
    element.lang = lang;
    element.dir = lang === 'ar' ? 'rtl' : 'ltr';
  }
}
localizePortal();
// The member's language is known once the session (whose code loads with its tag) signs them in.
void customElements.whenDefined('consult-session').then(() => {
  session?.manager.addEventListener('status', localizePortal);
  session?.manager.state.addEventListener('change', localizePortal);
  localizePortal();
});

languageSelect?.addEventListener('change', () => {
  localizePortal();
  const lang = languageSelect.value;
  for (const element of document.querySelectorAll(
    'consult-session, consult-form, case-history, navigator-chat, consult-access, prescription-request',
  )) {
    if (lang) element.setAttribute('lang', lang);
    else element.removeAttribute('lang');
  }
});

themeSelect?.addEventListener('change', () => {
  for (const element of document.querySelectorAll(
    'consult-session, consult-form, case-history, navigator-chat, consult-access, prescription-request',
  )) {
    if (themeSelect.value) element.setAttribute('theme', themeSelect.value);
    else element.removeAttribute('theme');
  }
});

document.querySelector('#sign-out')?.addEventListener('click', async (event) => {
  session?.signOut();
  await fetch('/demo/sign-out', { method: 'POST' });
  // The portal's own header follows: nobody is signed in now, and the member form signs one in.
  const memberLabel = document.querySelector('label[for="member"]');
  if (memberLabel) memberLabel.textContent = 'Sign in as';
  const switchButton = document.querySelector('#sign-in button[type="submit"]');
  if (switchButton) switchButton.textContent = 'Sign in';
  (event.target as HTMLButtonElement).hidden = true;
});

// A partner listens to the elements' events for its own analytics: ids and states only.
for (const type of [
  'consult-submitted',
  'consult-answered',
  'consult-followup',
  'navigator-handoff',
  'session-expired',
  'consult-error',
]) {
  document.addEventListener(type, (event) => console.info(`[portal] ${type}`, (event as CustomEvent).detail));
}
